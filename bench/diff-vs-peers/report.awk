# report.awk: prints run.sh's table from its TSV files (see run.sh for the rows).
# Inputs, in order: inputs.list (name base head width height), identical.tsv (name 0|1),
# loupe.tsv (loupe_bench_diff output), loupe-cli.tsv, argos.tsv, blazediff.tsv (µs), server.tsv,
# pixelmatch.tsv. Every total is a sum of per-pair medians; "files differ" leaves out
# byte-identical pairs, which Argos never hands to odiff (equal SHA-256 keys) and Loupe skips the
# same way; "full pages" are the pairs of those named *-full-* (tall screenshots).
BEGIN { FS = "\t" }
FILENAME ~ /inputs.list$/    { order[++n] = $1; mp[$1] = $4 * $5 / 1e6; next }
FILENAME ~ /identical.tsv$/  { same[$1] = $2; next }
FILENAME ~ /loupe.tsv$/      { if (FNR > 1) { t["loupe", $1] = $4; t["cmp", $1] = $5; t["spng", $1] = $6; t["libdec", $1] = $7; t["masked", $1] = $11; have["loupe"] = 1 } next }
FILENAME ~ /loupe-cli.tsv$/  { t["cli", $1] = $2 / 1000; have["cli"] = 1; next }
FILENAME ~ /argos.tsv$/      { t["argos", $1] = $2 / 1000; next }
FILENAME ~ /blazediff.tsv$/  { t["blaze", $1] = $2 / 1000; have["blaze"] = 1; next }
FILENAME ~ /server.tsv$/     { t["srv1", $1] = $2; t["srv2", $1] = $3; t["srv", $1] = $2 + $3; next }
FILENAME ~ /pixelmatch.tsv$/ { t["pm", $1] = $2; next }

function row(label, key, anchor,   ms) {
  ms = total[key]
  if ((key in need) && !have[need[key]] || ms <= 0) { printf "  %-64s %10s %9s\n", label, "-", "-"; return }
  printf "  %-64s %10.1f %9.1f%s\n", label, ms, MP / (ms / 1000), anchor == "" ? "" : "  " anchor
}
# ratio(label, numerator key, denominator key, "min"|"max", target, scope): time ratio num/den
# over all pairs, the pairs whose files differ and the full pages among those. A target holds in
# the first two columns, or with scope "full" in the full-page column only.
function ratio(label, num, den, kind, target, scope,   all, dif, full, ok, goal) {
  goal = sprintf("target %s%sx%s", kind == "min" ? ">= " : "<= ", target, scope == "full" ? " on full pages" : "")
  if (!have[need[num]] || !have[need[den]] || total[num] <= 0 || total[den] <= 0 || diff_total[den] <= 0 || full_total[den] <= 0) {
    printf "  %-54s %9s %13s %11s  %s\n", label, "-", "-", "-", goal; return
  }
  all = total[num] / total[den]; dif = diff_total[num] / diff_total[den]; full = full_total[num] / full_total[den]
  if (scope == "full") ok = kind == "min" ? full >= target : full <= target
  else ok = kind == "min" ? all >= target && dif >= target : all <= target && dif <= target
  printf "  %-54s %8.2fx %12.2fx %10.2fx  %s: %s\n", label, all, dif, full, goal, ok ? "met" : "NOT MET"
}
END {
  need["loupe"] = need["cmp"] = need["spng"] = need["libdec"] = need["masked"] = "loupe"; need["cli"] = "cli"; need["blaze"] = "blaze"
  split("loupe cmp masked spng libdec cli argos blaze srv srv1 pm", keys, " ")
  for (j = 1; j in keys; j++) if (!(keys[j] in need)) { need[keys[j]] = "peer"; have["peer"] = 1 }
  for (i = 1; i <= n; i++) {
    k = order[i]; MP += mp[k]; full = !same[k] && k ~ /-full-/
    if (!same[k]) nd++
    if (full) nf++
    for (j = 1; j in keys; j++) {
      total[keys[j]] += t[keys[j], k]
      if (!same[k]) diff_total[keys[j]] += t[keys[j], k]
      if (full) full_total[keys[j]] += t[keys[j], k]
    }
  }
  printf "\n  %-64s %10s %9s\n", sprintf("%d pairs, %.1f MP compared", n, MP), "total ms", "MP/s"
  row("Loupe in process (decode + both passes + mask, Differ reused)", "loupe")
  row("Loupe compare only (pre-decoded, both passes)", "cmp")
  row("Loupe compare only, eight masks drawn on the test", "masked")
  row("loupe diff, whole process", "cli")
  row("odiff as Argos runs it (2 passes at once, whole processes)", "argos", "anchor ~15 MP/s")
  row("blazediff, one pass (0.15, AA), no output file, whole process", "blaze")
  row("odiff --server, both passes (no process start)", "srv")
  row("odiff --server, pass 1 only", "srv1", "anchor ~59 MP/s")
  row("pixelmatch compare only (decoded in memory, t=0.1)", "pm", "anchor ~97 MP/s")
  row("libspng decode of both PNGs alone (1 thread): the floor", "spng", "anchor ~48 MP/s")
  row("  (Loupe's decode time as its own timer reports it)", "libdec")

  printf "\n  %-54s %9s %13s %11s\n", "ratios (speed-up = peer time / Loupe time)", "all pairs", sprintf("files differ (%d)", nd), sprintf("full pages (%d)", nf)
  ratio("Loupe in process vs odiff as Argos runs it", "argos", "loupe", "min", 8)
  ratio("Loupe compare only vs pixelmatch compare", "pm", "cmp", "min", 3)
  ratio("Loupe decode+compare time / libspng decode time", "loupe", "spng", "max", 1.3)
  ratio("Loupe compare with eight masks / without", "masked", "cmp", "max", 1.05)
  ratio("loupe diff process vs odiff as Argos runs it", "argos", "cli", "min", 5, "full")
  ratio("loupe diff process vs blazediff's one pass", "blaze", "cli", "min", 1, "full")

  if (detail) {
    printf "\nper pair (ms)\n%-31s %6s %4s %9s %9s %9s %9s %9s %9s %9s %9s %9s\n", "pair", "MP", "same", "loupe", "compare", "cli", "argos", "blazediff", "srv1", "srv2", "pm", "spng"
    for (i = 1; i <= n; i++) {
      k = order[i]
      printf "%-31s %6.2f %4s %9.2f %9.2f %9s %9.1f %9s %9.1f %9.1f %9.1f %9.1f\n", k, mp[k], same[k] ? "yes" : "", t["loupe", k], t["cmp", k], have["cli"] ? sprintf("%.1f", t["cli", k]) : "-", t["argos", k], have["blaze"] ? sprintf("%.1f", t["blaze", k]) : "-", t["srv1", k], t["srv2", k], t["pm", k], t["spng", k]
    }
  }
}
