#!/usr/bin/env bash
# run.sh [BUILD_DIR] [-- ingest.mjs options]: the ingestion benchmark against the
# loupe built in BUILD_DIR (default <repo>/build). SQLite in a temp dir by default; PostgreSQL
# (a fresh schema) when LOUPE_BENCH_POSTGRES_URL is set. Temp dir: $TMPDIR (pick the disk to
# measure with it). Options: --screenshots 2000 --clients 8 --repeats 20 --width 64 --height 48.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$HERE/../loupe-build.sh" "$@"
exec node "$HERE/ingest.mjs" "${REST[@]}"
