#!/usr/bin/env bash
# run.sh [BUILD_DIR] [-- soak.mjs options]: the soak against the loupe built in BUILD_DIR
# (default <repo>/build), on SQLite and then on PostgreSQL: 32 clients of mixed traffic for
# --seconds (default 600) while the server is killed with SIGKILL every --kill-every seconds
# (default 90), then the integrity check. Exits non-zero on lost data or growing memory.
# Other options: --clients N.
# Environment: LOUPE_SOAK_DATABASES ("sqlite postgresql" by default, or any of them, or
# "postgresql-s3": two instances sharing PostgreSQL and an s3rver bucket, killed in turn; needs
# `npm ci` in tests/s3);
# LOUPE_SOAK_POSTGRES_URL or LOUPE_TEST_POSTGRES_URL (a server to use; else a throwaway cluster
# is started here); LOUPE_BIN, LOUPE_PLUGIN_DIR (default: the build's); LOUPE_SOAK_KEEP=1 keeps
# the data folder.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$HERE/../loupe-build.sh" "$@"
set -- "${REST[@]}"

PG_DIR=""
PG_URL=""
cleanup() {
  if [ -n "$PG_DIR" ]; then
    pg_ctl=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n1)/pg_ctl
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$pg_ctl" -D "$PG_DIR" -m immediate stop >/dev/null 2>&1 || true
    else "$pg_ctl" -D "$PG_DIR" -m immediate stop >/dev/null 2>&1 || true; fi
    rm -rf "$PG_DIR"
  fi
}
trap cleanup EXIT

status=0
for database in ${LOUPE_SOAK_DATABASES:-sqlite postgresql}; do
  case "$database" in
    sqlite)
      node "$HERE/soak.mjs" "$@" || status=1
      ;;
    postgresql | postgresql-s3)
      url=${LOUPE_SOAK_POSTGRES_URL:-${LOUPE_TEST_POSTGRES_URL:-}}
      if [ -z "$url" ] && [ -z "$PG_DIR" ]; then
        PG_DIR=$(mktemp -d /tmp/loupe-soak-pg.XXXXXX)
        port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
        PG_URL=$(bash "$ROOT/.ci/start-postgres.sh" "$PG_DIR" "$port")
      fi
      url=${url:-$PG_URL}
      if [ "$database" = postgresql ]; then
        node "$HERE/soak.mjs" --postgres "$url" "$@" || status=1
      else
        node "$HERE/soak.mjs" --postgres "$url" --s3 --instances 2 "$@" || status=1
      fi
      ;;
    *) echo "run.sh: unknown setup $database (sqlite, postgresql or postgresql-s3)" >&2; exit 2 ;;
  esac
done
exit $status
