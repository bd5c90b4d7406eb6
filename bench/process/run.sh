#!/usr/bin/env bash
# run.sh [PAIRS=1000] [-- process.mjs options]: the processing benchmark.
#
# Makes PAIRS distinct screenshot pairs from the rendered corpus (gen-pairs.mjs, cached in
# bench/process/pairs/), then process.mjs: a reference build of the bases and a feature build of
# the heads through the API of a `loupe serve` it starts (SQLite in a temp dir; also PostgreSQL
# when LOUPE_BENCH_POSTGRES_URL is set), timed from the last upload to the conclusion, and odiff run
# as Argos runs it (two passes per pair, 2 processes at once) on the same pairs, in the same run.
#
# Environment: LOUPE_BIN (default <repo>/build-dev/bin/loupe; the plugins are the `plugins` folder
# next to its `bin`), LOUPE_PLUGIN_DIR, LOUPE_ODIFF (default bench/node_modules/@odiff/linux-x64/odiff),
# LOUPE_CORPUS_DIR (default bench/corpus), LOUPE_BENCH_POSTGRES_URL, TMPDIR (the disk measured).
# Options after `--`: --workers 2 (jobs.workers), --odiff-parallel 2, --clients 8, --no-odiff, --no-loupe.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
PAIRS=${1:-1000}
[ $# -gt 0 ] && shift
[ "${1:-}" = "--" ] && shift
[[ $PAIRS =~ ^[1-9][0-9]*$ ]] || { echo "run.sh: PAIRS must be a positive integer" >&2; exit 1; }

export LOUPE_BIN=${LOUPE_BIN:-$ROOT/build-dev/bin/loupe}
LOUPE_BIN=$(cd "$(dirname "$LOUPE_BIN")" && pwd)/$(basename "$LOUPE_BIN")
export LOUPE_PLUGIN_DIR=${LOUPE_PLUGIN_DIR:-$(dirname "$(dirname "$LOUPE_BIN")")/plugins}
export LOUPE_SOURCE_DIR=$ROOT
export BENCH_NODE_MODULES=${BENCH_NODE_MODULES:-$ROOT/bench/node_modules}
ODIFF=${LOUPE_ODIFF:-$BENCH_NODE_MODULES/@odiff/linux-x64/odiff}
CORPUS=${LOUPE_CORPUS_DIR:-$ROOT/bench/corpus}

die() { echo "run.sh: $*" >&2; exit 1; }
command -v node >/dev/null || die "node not found"
[ -x "$LOUPE_BIN" ] || die "no loupe binary at $LOUPE_BIN (cmake --build build-dev -j2 --target loupe loupe_builds loupe_auth)"
[ -f "$LOUPE_PLUGIN_DIR/builds.so" ] || die "no builds.so in $LOUPE_PLUGIN_DIR"
[ -x "$ODIFF" ] || die "no odiff at $ODIFF (run 'npm ci' in bench/ or set LOUPE_ODIFF)"
[ -d "$BENCH_NODE_MODULES/pngjs" ] || die "no pngjs in $BENCH_NODE_MODULES (run 'npm ci' in bench/)"
[ -f "$CORPUS/corpus.tsv" ] || die "no corpus.tsv in $CORPUS (see bench/README.md to render it)"

node "$HERE/gen-pairs.mjs" --count "$PAIRS" --corpus "$CORPUS" --out "$HERE/pairs"
exec node "$HERE/process.mjs" --pairs "$PAIRS" --pairs-dir "$HERE/pairs" --odiff "$ODIFF" "$@"
