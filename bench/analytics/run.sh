#!/usr/bin/env bash
# run.sh [BUILDS=100000] [RUNS=100]: the account analytics benchmark.
#
# Starts `loupe serve` (plugins auth, builds, analytics) on a fresh SQLite database, and on a
# fresh PostgreSQL schema when LOUPE_BENCH_POSTGRES_URL is set; makes five projects through the
# API; writes BUILDS builds spread evenly over the last 365 days straight into the builds
# plugin's `builds` table (10 screenshots per build on average: 1,000,000 for 100,000 builds);
# then times RUNS requests of GET /accounts/default/analytics for one year by week and for 30
# days by day, and prints p50/p99 against the target (one-year p99 under 100 ms).
#
# Environment: LOUPE_BIN (default <repo>/build/bin/loupe; plugins from the `plugins` folder next
# to its `bin`), LOUPE_PLUGIN_DIR, LOUPE_BENCH_POSTGRES_URL (postgresql://user@host:port/db).
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BUILDS=${1:-100000}
RUNS=${2:-100}
[[ $BUILDS =~ ^[1-9][0-9]*$ && $RUNS =~ ^[1-9][0-9]*$ ]] || {
  echo "usage: run.sh [BUILDS] [RUNS]" >&2; exit 1; }
LOUPE_BIN=${LOUPE_BIN:-$ROOT/build/bin/loupe}
PLUGIN_DIR=${LOUPE_PLUGIN_DIR:-$(dirname "$(dirname "$LOUPE_BIN")")/plugins}
TARGET_MS=100
die() { echo "run.sh: $*" >&2; exit 1; }
[ -x "$LOUPE_BIN" ] || die "no loupe binary at $LOUPE_BIN"
[ -f "$PLUGIN_DIR/analytics.so" ] || die "no analytics.so in $PLUGIN_DIR"
for tool in curl sqlite3; do command -v $tool >/dev/null || die "$tool not found"; done

WORK=$(mktemp -d)
SERVER_PID=
cleanup() {
  [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null && wait "$SERVER_PID" 2>/dev/null
  rm -rf "$WORK"
}
trap cleanup EXIT

# The builds, as portable SQL over a series 0..BUILDS-1 named `series(i)`: round-robin over
# the five projects, evenly spread over the year before NOW_MS, 1 to 19 screenshots.
builds_insert() {
  cat <<SQL
INSERT INTO builds (project_id, number, name, commit_sha, branch, mode, job_status, parallel,
  batch_count, partial, merge_queue, subset, complete, valid, screenshot_count, conclusion,
  review_state, created_at, updated_at)
SELECT p.id, 1000 + i, 'default', '$(printf 'a%.0s' {1..40})', 'main', 'ci', 'complete', 0, 1,
  0, 0, 0, 1, 1, 1 + (i * 7) % 19,
  CASE WHEN i % 3 = 0 THEN 'changes-detected' WHEN i % 3 = 1 THEN 'no-changes' END,
  CASE WHEN i % 6 = 0 THEN 'accepted' WHEN i % 12 = 3 THEN 'rejected' END,
  $NOW_MS - CAST(i AS BIGINT) * $((365 * 86400000 / BUILDS)) - 1,
  $NOW_MS - CAST(i AS BIGINT) * $((365 * 86400000 / BUILDS)) - 1
FROM series JOIN (SELECT id, ROW_NUMBER() OVER (ORDER BY id) - 1 AS slot FROM projects) AS p
  ON p.slot = i % 5;
SQL
}

percentile() {  # percentile P (0-100) of the sorted numbers on stdin
  awk -v p="$1" '{ v[NR] = $1 } END { i = int((NR * p + 99) / 100); if (i < 1) i = 1; print v[i] }'
}

time_query() {  # time_query LABEL QUERY: RUNS requests, prints p50/p99 in ms
  local label=$1 query=$2 times=$WORK/times status
  : >"$times"
  status=$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $PAT" "$BASE/v2/accounts/default/analytics?$query")
  [ "$status" = 200 ] || die "$label: HTTP $status"
  for _ in $(seq "$RUNS"); do
    curl -s -o /dev/null -w '%{time_total}\n' -H "Authorization: Bearer $PAT" \
      "$BASE/v2/accounts/default/analytics?$query" | awk '{ printf "%.2f\n", $1 * 1000 }' >>"$times"
  done
  local p50 p99
  p50=$(sort -n "$times" | percentile 50)
  p99=$(sort -n "$times" | percentile 99)
  local verdict=""
  [ "$label" = "1 year by week" ] && verdict=$(awk -v p="$p99" -v t=$TARGET_MS \
    'BEGIN { printf "  (target p99 < %d ms: %s, %.2fx of the target)", t, (p < t ? "met" : "MISSED"), p / t }')
  printf '%-12s %-16s p50 %7.2f ms  p99 %7.2f ms%s\n' "$DB_LABEL" "$label" "$p50" "$p99" "$verdict"
}

run_on() {  # run_on LABEL DB_URL
  DB_LABEL=$1
  local url=$2 data=$WORK/data-$1
  mkdir -p "$data"
  "$LOUPE_BIN" --config "$ROOT/etc/loupe.properties" --set http.port=0 \
    --set http.listen_address=127.0.0.1 --set "data.dir=$data" --set "db.url=$url" \
    --set "plugins.path=$PLUGIN_DIR" --set plugins.enabled=auth,builds,analytics \
    --set log.level=warn serve >"$WORK/serve-$1.log" 2>&1 &
  SERVER_PID=$!
  local port=
  for _ in $(seq 600); do
    port=$(sed -n 's|.*loupe: listening on http://[^:]*:\([0-9]*\).*|\1|p' "$WORK/serve-$1.log" | head -1)
    [ -n "$port" ] && break
    sleep 0.1
  done
  [ -n "$port" ] || die "loupe serve did not start: $(cat "$WORK/serve-$1.log")"
  BASE=http://127.0.0.1:$port
  PAT=$(sed -n 's/.*"personalAccessToken": *"\([^"]*\)".*/\1/p' "$data/bootstrap.json")
  for name in api docs mobile admin; do
    curl -sf -o /dev/null -X POST -H "Authorization: Bearer $PAT" -H 'Content-Type: application/json' \
      -d "{\"name\":\"$name\",\"accountSlug\":\"default\"}" "$BASE/v2/projects" || die "project $name"
  done
  NOW_MS=$(($(date +%s) * 1000))
  local started=$SECONDS
  if [ "$1" = sqlite ]; then
    { echo "WITH RECURSIVE series(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM series WHERE i + 1 < $BUILDS)"
      builds_insert; echo "ANALYZE;"; } | sqlite3 -cmd ".timeout 10000" "${url#sqlite:}"
  else
    { echo "WITH series(i) AS (SELECT generate_series(0, $BUILDS - 1))"; builds_insert
      echo "VACUUM ANALYZE builds;"; } | psql -q -v ON_ERROR_STOP=1 "$url" >/dev/null
  fi
  echo "$DB_LABEL: $BUILDS builds, $(screenshots "$1" "$url") screenshots written in $((SECONDS - started)) s"
  local year_from month_from
  year_from=$(date -u -d "@$((NOW_MS / 1000 - 364 * 86400))" +%Y-%m-%dT%H:%M:%SZ)
  month_from=$(date -u -d "@$((NOW_MS / 1000 - 30 * 86400))" +%Y-%m-%dT%H:%M:%SZ)
  time_query "1 year by week" "from=$year_from&groupBy=week"
  time_query "30 days by day" "from=$month_from&groupBy=day"
  kill "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null || true
  SERVER_PID=
}

screenshots() {
  local sql="SELECT SUM(screenshot_count) FROM builds"
  if [ "$1" = sqlite ]; then sqlite3 "${2#sqlite:}" "$sql"; else psql -Atq "$2" -c "$sql"; fi
}

echo "analytics benchmark: $BUILDS builds over 365 days in 5 projects, $RUNS requests per query"
run_on sqlite "sqlite:$WORK/loupe.db"
if [ -n "${LOUPE_BENCH_POSTGRES_URL:-}" ]; then
  command -v psql >/dev/null || die "psql not found"
  SCHEMA=bench_analytics_$$
  psql -q -v ON_ERROR_STOP=1 "$LOUPE_BENCH_POSTGRES_URL" -c "CREATE SCHEMA $SCHEMA"
  trap 'psql -q "$LOUPE_BENCH_POSTGRES_URL" -c "DROP SCHEMA IF EXISTS $SCHEMA CASCADE" >/dev/null 2>&1; cleanup' EXIT
  sep='?'; [[ $LOUPE_BENCH_POSTGRES_URL == *\?* ]] && sep='&'
  run_on postgresql "$LOUPE_BENCH_POSTGRES_URL${sep}options=-csearch_path%3D$SCHEMA"
else
  echo "postgresql: skipped (set LOUPE_BENCH_POSTGRES_URL)"
fi
