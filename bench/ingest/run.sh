#!/usr/bin/env bash
# run.sh [BUILD_DIR] [-- ingest.mjs options]: the ingestion benchmark of issue 3 against the
# loupe built in BUILD_DIR (default <repo>/build). SQLite in a temp dir by default; PostgreSQL
# (a fresh schema) when LOUPE_BENCH_POSTGRES_URL is set. Temp dir: $TMPDIR (pick the disk to
# measure with it). Options: --screenshots 2000 --clients 8 --repeats 20 --width 64 --height 48.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BUILD=${1:-$ROOT/build}
[ $# -gt 0 ] && shift
[ "${1:-}" = "--" ] && shift
export LOUPE_BIN=${LOUPE_BIN:-$BUILD/bin/loupe}
export LOUPE_PLUGIN_DIR=${LOUPE_PLUGIN_DIR:-$BUILD/plugins}
export LOUPE_SOURCE_DIR=$ROOT
if [ ! -x "$LOUPE_BIN" ]; then
  echo "run.sh: no loupe binary at $LOUPE_BIN (build first: scripts/build.sh $BUILD)" >&2
  exit 1
fi
exec node "$HERE/ingest.mjs" "$@"
