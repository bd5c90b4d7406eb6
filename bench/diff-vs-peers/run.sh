#!/usr/bin/env bash
# run.sh [CORPUS_DIR]
#
# Loupe's diff engine against its peers on a corpus rendered by make-corpus.sh (default
# bench/corpus). Prints one table of megapixels compared per second (MP = canvas width x height
# of each pair, summed over the corpus; each pair's time is a median of RUNS runs) and the three
# ratios issue 5 sets targets for. Rows:
#   Loupe in process        loupe_bench_diff: Differ::diff_files, decode + both passes + mask PNG
#   Loupe compare only      loupe_bench_diff: compare() on pre-decoded images, both passes
#   loupe diff process      `$LOUPE_BIN diff BASE HEAD --out MASK` run from the repository root,
#                           exec to exit (skipped with a note if unset or failing)
#   odiff as Argos runs it  both passes (0.15 / 0.0225, AA, diff mask) started at once, exec to exit
#   odiff --server          the same two passes as round trips to one server process
#   pixelmatch compare      pixelmatch() on RGBA decoded beforehand (threshold 0.1)
#   libspng decode          read + decode both PNGs to RGBA8, one thread: the floor
# Pairs of different sizes are padded (transparent, top-left) for odiff and pixelmatch, as Argos
# pads them; Loupe reads the original files and pads internally.
#
# Environment: RUNS (default 3), LOUPE_BENCH_DIFF (loupe_bench_diff binary, default
# build/bench/diff-vs-peers/loupe_bench_diff), LOUPE_BIN (the loupe executable), LOUPE_ODIFF
# (odiff binary, default from bench/node_modules), BENCH_NODE_MODULES, DETAIL=1 (also print
# per-pair times).
set -euo pipefail
export LC_ALL=C

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
CORPUS=$(cd "${1:-$REPO/bench/corpus}" && pwd)
RUNS=${RUNS:-3}
NODE_MODULES=${BENCH_NODE_MODULES:-$REPO/bench/node_modules}
export BENCH_NODE_MODULES=$NODE_MODULES
ODIFF=${LOUPE_ODIFF:-$NODE_MODULES/@odiff/linux-x64/odiff}
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

# loupe diff as a process (from the repository root, where etc/loupe.properties enables the
# builds plugin that registers `diff`) -------------------------------------------------------
cd "$REPO"
loupe_cli_check() { # one untimed, time-bounded run on the first pair; exit 0 or 1 is a verdict
  local rc=0
  IFS=$'\t' read -r _ base head < "$WORK/raw.list"
  timeout 120 "$LOUPE_BIN" diff "$base" "$head" --out "$WORK/loupe-mask.png" > "$WORK/loupe-check.txt" 2>&1 || rc=$?
  [ "$rc" -le 1 ] || { echo "loupe diff row skipped: '$LOUPE_BIN diff' exited with $rc: $(head -c 300 "$WORK/loupe-check.txt" | tr -s '\n' ' ')" >> "$NOTES"; return 1; }
}
: > "$WORK/loupe-cli.tsv"
if [ -z "$LOUPE_BIN" ]; then
  echo "loupe diff row skipped: LOUPE_BIN is not set" >> "$NOTES"
elif loupe_cli_check; then
  echo "run.sh: loupe diff ($LOUPE_BIN)" >&2
  while IFS=$'\t' read -r name base head; do
    times=()
    for ((r = 0; r < RUNS; r++)); do
      rc=0; t0=$(now_us)
      "$LOUPE_BIN" diff "$base" "$head" --out "$WORK/loupe-mask.png" > /dev/null 2>&1 || rc=$?
      t1=$(now_us)
      [ "$rc" -le 1 ] || die "loupe diff failed on $name (exit $rc)"
      times+=($((t1 - t0)))
    done
    printf '%s\t%s\n' "$name" "$(median "${times[@]}")" >> "$WORK/loupe-cli.tsv"
  done < "$WORK/raw.list"
fi

# odiff as Argos runs it: both passes started at once, whole processes ---------------------------
odiff_pass() { # odiff_pass BASE HEAD THRESHOLD DIFF_PNG
  local rc=0
  "$ODIFF" "$1" "$2" "$4" --parsable-stdout --diff-mask --threshold="$3" --antialiasing > /dev/null 2>&1 || rc=$?
  [ "$rc" = 0 ] || [ "$rc" = 22 ]
}
echo "run.sh: odiff as Argos runs it" >&2
: > "$WORK/argos.tsv"
while IFS=$'\t' read -r name base head _; do
  times=()
  for ((r = 0; r < RUNS; r++)); do
    t0=$(now_us)
    odiff_pass "$base" "$head" 0.15 "$WORK/pass1.png" & p1=$!
    odiff_pass "$base" "$head" 0.0225 "$WORK/pass2.png" & p2=$!
    wait "$p1" || die "odiff pass 1 failed on $name"
    wait "$p2" || die "odiff pass 2 failed on $name"
    t1=$(now_us)
    times+=($((t1 - t0)))
  done
  printf '%s\t%s\n' "$name" "$(median "${times[@]}")" >> "$WORK/argos.tsv"
done < "$WORK/inputs.list"

echo "run.sh: odiff --server" >&2
timeout 900 node "$HERE/peers-timing.mjs" odiff-server "$WORK/inputs.list" "$RUNS" "$ODIFF" > "$WORK/server.tsv"
echo "run.sh: pixelmatch" >&2
timeout 900 node "$HERE/peers-timing.mjs" pixelmatch "$WORK/inputs.list" "$RUNS" > "$WORK/pixelmatch.tsv"

# report ------------------------------------------------------------------------------------------
echo "# diff-vs-peers on $(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')), $(date -u +%Y-%m-%dT%H:%MZ)"
echo "# corpus $CORPUS; odiff $("$ODIFF" --version 2>&1 | grep -o '[0-9][0-9.]*' | head -1); pixelmatch $(node -p "require('$NODE_MODULES/pixelmatch/package.json').version"); node $(node --version); medians of RUNS=$RUNS"
echo "# load average at start $LOAD_START, at end $(cut -d' ' -f1 /proc/loadavg) (other work on the machine skews every row, odiff's processes most)"
awk -v detail="${DETAIL:-0}" -f "$HERE/report.awk" "$WORK/inputs.list" "$WORK/identical.tsv" \
  "$WORK/loupe.tsv" "$WORK/loupe-cli.tsv" "$WORK/argos.tsv" "$WORK/server.tsv" "$WORK/pixelmatch.tsv"
if [ -s "$NOTES" ]; then
  printf '\nnotes\n'
  sed 's/^/  /' "$NOTES"
fi
