#!/usr/bin/env bash
# run.sh [CORPUS_DIR]
#
# Loupe's diff engine against its peers on a corpus rendered by make-corpus.sh (default
# bench/corpus). Prints one table of megapixels compared per second (MP = canvas width x height
# of each pair, summed over the corpus; each pair's time is a median of RUNS runs) and the three
# ratios issues 5 and 19 set targets for. Rows:
#   Loupe in process        loupe_bench_diff: Differ::diff_files, decode + both passes + mask PNG
#   Loupe compare only      loupe_bench_diff: compare() on pre-decoded images, both passes
#   loupe diff process      `$LOUPE_BIN diff BASE HEAD --out MASK` run from the repository root,
#                           exec to exit (skipped with a note if unset or failing)
#   odiff as Argos runs it  both passes (0.15 / 0.0225, AA, diff mask) started at once, exec to exit
#   blazediff one pass      `blazediff BASE HEAD --threshold 0.15 --antialiasing`: one pass, no
#                           output file, exec to exit (skipped with a note if not installed)
#   odiff --server          the same two passes as round trips to one server process
#   pixelmatch compare      pixelmatch() on RGBA decoded beforehand (threshold 0.1)
#   libspng decode          read + decode both PNGs to RGBA8, one thread: the floor
# Pairs of different sizes are padded (transparent, top-left) for odiff, blazediff and pixelmatch,
# as Argos pads them; Loupe reads the original files and pads internally. Ratios are printed for
# all pairs, for the pairs whose files differ, and for the full pages among those (pairs named
# *-full-*: tall screenshots, where decoding dominates).
#
# Environment: RUNS (default 3), LOUPE_BENCH_DIFF (loupe_bench_diff binary, default
# build/bench/diff-vs-peers/loupe_bench_diff), LOUPE_BIN (the loupe executable), LOUPE_ODIFF
# (odiff binary, default from bench/node_modules), LOUPE_BLAZEDIFF (blazediff binary, default
# from bench/node_modules), BENCH_NODE_MODULES, DETAIL=1 (also print per-pair times).
set -euo pipefail
export LC_ALL=C

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
CORPUS=$(cd "${1:-$REPO/bench/corpus}" && pwd)
RUNS=${RUNS:-3}
NODE_MODULES=${BENCH_NODE_MODULES:-$REPO/bench/node_modules}
export BENCH_NODE_MODULES=$NODE_MODULES
ODIFF=${LOUPE_ODIFF:-$NODE_MODULES/@odiff/linux-x64/odiff}
BLAZEDIFF=${LOUPE_BLAZEDIFF:-$NODE_MODULES/@blazediff/bin-linux-x64/blazediff}
BENCH_BIN=${LOUPE_BENCH_DIFF:-$REPO/build/bench/diff-vs-peers/loupe_bench_diff}
LOUPE_BIN=${LOUPE_BIN:-}
if [ -n "$LOUPE_BIN" ]; then  # absolute, because `loupe diff` runs from the repository root
  LOUPE_BIN=$(command -v "$LOUPE_BIN" || echo "$LOUPE_BIN")
  [[ $LOUPE_BIN == /* ]] || LOUPE_BIN=$PWD/$LOUPE_BIN
fi

die() { echo "run.sh: $*" >&2; exit 1; }
[ -f "$CORPUS/corpus.tsv" ] || die "no corpus.tsv in $CORPUS (see bench/README.md to render it)"
command -v node >/dev/null || die "node not found"
[ -x "$ODIFF" ] || die "no odiff at $ODIFF (run 'npm ci' in bench/ or set LOUPE_ODIFF)"
[[ $RUNS =~ ^[1-9][0-9]*$ ]] || die "RUNS must be a positive integer"

WORK=$(mktemp -d /tmp/loupe-bench-diff.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
NOTES=$WORK/notes.txt
: > "$NOTES"

now_us() { local t=$EPOCHREALTIME; echo "${t/./}"; }
median() { printf '%s\n' "$@" | sort -n | sed -n "$(( ($# + 1) / 2 ))p"; }

tail -n +2 "$CORPUS/corpus.tsv" | awk -F'\t' -v d="$CORPUS" 'NF { print $1 "\t" d "/" $1 ".base.png\t" d "/" $1 ".head.png" }' > "$WORK/raw.list"
echo "run.sh: $(wc -l < "$WORK/raw.list") pairs from $CORPUS, RUNS=$RUNS" >&2
LOAD_START=$(cut -d' ' -f1 /proc/loadavg)
timeout 300 node "$HERE/peers-timing.mjs" pad "$WORK/raw.list" "$WORK" > "$WORK/inputs.list"
while IFS=$'\t' read -r name base head; do
  if cmp -s "$base" "$head"; then printf '%s\t1\n' "$name"; else printf '%s\t0\n' "$name"; fi
done < "$WORK/raw.list" > "$WORK/identical.tsv"

# Loupe in process ------------------------------------------------------------------------
if [ -x "$BENCH_BIN" ]; then
  echo "run.sh: Loupe in process ($BENCH_BIN)" >&2
  timeout 900 "$BENCH_BIN" "$CORPUS" "$RUNS" > "$WORK/loupe.tsv"
else
  echo "Loupe in-process rows skipped: no loupe_bench_diff at $BENCH_BIN (build it or set LOUPE_BENCH_DIFF)" >> "$NOTES"
  printf 'name\n' > "$WORK/loupe.tsv"
fi

# Whole processes: loupe diff, odiff as Argos runs it, blazediff. Every run times the three in
# turn on the same pair, so a change in the machine's load hits all of them alike. `loupe diff`
# runs from the repository root, where etc/loupe.properties enables the builds plugin that
# registers `diff`.
cd "$REPO"
loupe_cli_check() { # one untimed, time-bounded run on the first pair; exit 0 or 1 is a verdict
  local rc=0
  IFS=$'\t' read -r _ base head < "$WORK/raw.list"
  timeout 120 "$LOUPE_BIN" diff "$base" "$head" --out "$WORK/loupe-mask.png" > "$WORK/loupe-check.txt" 2>&1 || rc=$?
  [ "$rc" -le 1 ] || { echo "loupe diff row skipped: '$LOUPE_BIN diff' exited with $rc: $(head -c 300 "$WORK/loupe-check.txt" | tr -s '\n' ' ')" >> "$NOTES"; return 1; }
}
HAVE_LOUPE=0
if [ -z "$LOUPE_BIN" ]; then
  echo "loupe diff row skipped: LOUPE_BIN is not set" >> "$NOTES"
elif loupe_cli_check; then
  HAVE_LOUPE=1
fi
HAVE_BLAZEDIFF=0
if [ -x "$BLAZEDIFF" ]; then
  HAVE_BLAZEDIFF=1
else
  echo "blazediff row skipped: no blazediff at $BLAZEDIFF (run 'npm ci' in bench/ or set LOUPE_BLAZEDIFF)" >> "$NOTES"
fi

loupe_cli() { # loupe_cli NAME BASE HEAD: both passes and the mask PNG, as the server computes them
  local rc=0
  "$LOUPE_BIN" diff "$2" "$3" --out "$WORK/loupe-mask.png" < /dev/null > /dev/null 2>&1 || rc=$?
  [ "$rc" -le 1 ] || die "loupe diff failed on $1 (exit $rc)"
}
odiff_pass() { # odiff_pass BASE HEAD THRESHOLD DIFF_PNG
  local rc=0
  "$ODIFF" "$1" "$2" "$4" --parsable-stdout --diff-mask --threshold="$3" --antialiasing < /dev/null > /dev/null 2>&1 || rc=$?
  [ "$rc" = 0 ] || [ "$rc" = 22 ]
}
odiff_as_argos() { # odiff_as_argos NAME BASE HEAD: both passes started at once
  local p1 p2
  odiff_pass "$2" "$3" 0.15 "$WORK/pass1.png" & p1=$!
  odiff_pass "$2" "$3" 0.0225 "$WORK/pass2.png" & p2=$!
  wait "$p1" || die "odiff pass 1 failed on $1"
  wait "$p2" || die "odiff pass 2 failed on $1"
}
blazediff_pass() { # blazediff_pass NAME BASE HEAD: one pass at Argos's first threshold, no output
  local rc=0
  "$BLAZEDIFF" "$2" "$3" --threshold 0.15 --antialiasing < /dev/null > /dev/null 2>&1 || rc=$?
  [ "$rc" -le 1 ] || die "blazediff failed on $1 (exit $rc)"
}
timed() { # timed COMMAND ARGS...: runs it in this shell; its wall time (µs) goes to ELAPSED
  local t0
  t0=$(now_us); "$@"; ELAPSED=$(($(now_us) - t0))
}

echo "run.sh: whole processes: loupe diff ($([ $HAVE_LOUPE = 1 ] && echo "$LOUPE_BIN" || echo skipped)), odiff as Argos runs it, blazediff ($([ $HAVE_BLAZEDIFF = 1 ] && echo "$BLAZEDIFF" || echo skipped))" >&2
: > "$WORK/loupe-cli.tsv"; : > "$WORK/argos.tsv"; : > "$WORK/blazediff.tsv"
# raw.list (original files, for Loupe) and inputs.list (padded, for the peers) share their order.
while IFS=$'\t' read -r name raw_base raw_head _ base head _; do
  loupe_times=(); argos_times=(); blazediff_times=()
  for ((r = 0; r < RUNS; r++)); do
    if [ $HAVE_LOUPE = 1 ]; then timed loupe_cli "$name" "$raw_base" "$raw_head"; loupe_times+=("$ELAPSED"); fi
    timed odiff_as_argos "$name" "$base" "$head"; argos_times+=("$ELAPSED")
    if [ $HAVE_BLAZEDIFF = 1 ]; then timed blazediff_pass "$name" "$base" "$head"; blazediff_times+=("$ELAPSED"); fi
  done
  if [ $HAVE_LOUPE = 1 ]; then printf '%s\t%s\n' "$name" "$(median "${loupe_times[@]}")" >> "$WORK/loupe-cli.tsv"; fi
  printf '%s\t%s\n' "$name" "$(median "${argos_times[@]}")" >> "$WORK/argos.tsv"
  if [ $HAVE_BLAZEDIFF = 1 ]; then printf '%s\t%s\n' "$name" "$(median "${blazediff_times[@]}")" >> "$WORK/blazediff.tsv"; fi
done < <(paste "$WORK/raw.list" "$WORK/inputs.list")

echo "run.sh: odiff --server" >&2
timeout 900 node "$HERE/peers-timing.mjs" odiff-server "$WORK/inputs.list" "$RUNS" "$ODIFF" > "$WORK/server.tsv"
echo "run.sh: pixelmatch" >&2
timeout 900 node "$HERE/peers-timing.mjs" pixelmatch "$WORK/inputs.list" "$RUNS" > "$WORK/pixelmatch.tsv"

# report ------------------------------------------------------------------------------------------
echo "# diff-vs-peers on $(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')), $(date -u +%Y-%m-%dT%H:%MZ)"
BLAZEDIFF_VERSION=$([ -x "$BLAZEDIFF" ] && node -p "require('$NODE_MODULES/@blazediff/bin/package.json').version" 2>/dev/null || echo none)
echo "# corpus $CORPUS; odiff $("$ODIFF" --version 2>&1 | grep -o '[0-9][0-9.]*' | head -1); blazediff $BLAZEDIFF_VERSION; pixelmatch $(node -p "require('$NODE_MODULES/pixelmatch/package.json').version"); node $(node --version); medians of RUNS=$RUNS"
echo "# load average at start $LOAD_START, at end $(cut -d' ' -f1 /proc/loadavg) (other work on the machine skews every row, odiff's processes most)"
awk -v detail="${DETAIL:-0}" -f "$HERE/report.awk" "$WORK/inputs.list" "$WORK/identical.tsv" \
  "$WORK/loupe.tsv" "$WORK/loupe-cli.tsv" "$WORK/argos.tsv" "$WORK/blazediff.tsv" "$WORK/server.tsv" \
  "$WORK/pixelmatch.tsv"
if [ -s "$NOTES" ]; then
  printf '\nnotes\n'
  sed 's/^/  /' "$NOTES"
fi
