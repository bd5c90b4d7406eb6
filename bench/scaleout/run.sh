#!/usr/bin/env bash
# run.sh [PAIRS=1000] [-- scaleout.mjs options]: the scale-out benchmark (see README.md).
# Starts a throwaway PostgreSQL cluster with pg_stat_statements (to count statements) unless
# LOUPE_BENCH_POSTGRES_URL is set, then runs scaleout.mjs with 1 and then 2 instances.
# Environment: LOUPE_BIN (default <repo>/build/bin/loupe), LOUPE_PLUGIN_DIR.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
PAIRS=${1:-1000}
[ $# -gt 0 ] && shift
[ "${1:-}" = "--" ] && shift
export LOUPE_BIN=${LOUPE_BIN:-$ROOT/build/bin/loupe}
export LOUPE_PLUGIN_DIR=${LOUPE_PLUGIN_DIR:-$(dirname "$(dirname "$LOUPE_BIN")")/plugins}
export LOUPE_SOURCE_DIR=$ROOT
[ -d "$ROOT/tests/s3/node_modules/@20minutes/s3rver" ] || { echo "run.sh: run npm ci in tests/s3" >&2; exit 1; }

PG_DIR=""
cleanup() {
  if [ -n "$PG_DIR" ]; then
    PG_BIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n1)
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$PG_BIN/pg_ctl" -D "$PG_DIR" -m immediate stop >/dev/null 2>&1 || true
    else "$PG_BIN/pg_ctl" -D "$PG_DIR" -m immediate stop >/dev/null 2>&1 || true; fi
    rm -rf "$PG_DIR"
  fi
}
trap cleanup EXIT
URL=${LOUPE_BENCH_POSTGRES_URL:-}
if [ -z "$URL" ]; then
  PG_DIR=$(mktemp -d /tmp/loupe-bench-pg.XXXXXX)
  PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  URL=$(bash "$ROOT/.ci/start-postgres.sh" "$PG_DIR" "$PORT")
  PG_BIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n1)
  as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
  as_pg "$PG_BIN/psql" -h 127.0.0.1 -p "$PORT" -U postgres -qc "ALTER SYSTEM SET shared_preload_libraries = 'pg_stat_statements'"
  as_pg "$PG_BIN/pg_ctl" -D "$PG_DIR" -l "$PG_DIR/server.log" -w -m fast restart -o "-p $PORT -k $PG_DIR -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=300" >/dev/null
  as_pg "$PG_BIN/psql" -h 127.0.0.1 -p "$PORT" -U postgres -d loupe -qc "CREATE EXTENSION IF NOT EXISTS pg_stat_statements"
fi
exec node "$HERE/scaleout.mjs" --postgres "$URL" --pairs "$PAIRS" "$@"
