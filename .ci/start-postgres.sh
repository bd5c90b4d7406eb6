#!/usr/bin/env bash
# start-postgres.sh DIR PORT: initialise and start a throwaway PostgreSQL cluster in DIR on
# 127.0.0.1:PORT with role/database `loupe` (password `loupe`). As root it runs the server as
# the `postgres` user. Prints the connection URL on stdout. Stop it with:
#   pg_ctl -D DIR stop   (as the same user)
set -euo pipefail
DIR=${1:?usage: start-postgres.sh DIR PORT}
PORT=${2:?usage: start-postgres.sh DIR PORT}
PG_BIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[ -x "$PG_BIN/initdb" ] || { echo "start-postgres: PostgreSQL server binaries not found (apt-get install postgresql)" >&2; exit 1; }

as_pg() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

mkdir -p "$DIR"
if [ "$(id -u)" = 0 ]; then chown postgres:postgres "$DIR"; fi
if [ ! -f "$DIR/PG_VERSION" ]; then
  as_pg "$PG_BIN/initdb" -D "$DIR" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >/dev/null
fi
as_pg "$PG_BIN/pg_ctl" -D "$DIR" -l "$DIR/server.log" -w -t 60 \
  -o "-p $PORT -k $DIR -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=300" start >/dev/null
as_pg "$PG_BIN/psql" -h 127.0.0.1 -p "$PORT" -U postgres -v ON_ERROR_STOP=1 -q <<SQL >/dev/null
DO \$\$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'loupe') THEN
    CREATE ROLE loupe LOGIN PASSWORD 'loupe' CREATEDB;
  END IF;
END \$\$;
SQL
if ! as_pg "$PG_BIN/psql" -h 127.0.0.1 -p "$PORT" -U postgres -tAc "SELECT 1 FROM pg_database WHERE datname='loupe'" | grep -q 1; then
  as_pg "$PG_BIN/psql" -h 127.0.0.1 -p "$PORT" -U postgres -q -c "CREATE DATABASE loupe OWNER loupe" >/dev/null
fi
echo "postgresql://loupe:loupe@127.0.0.1:$PORT/loupe"
