#!/usr/bin/env bash
# run.sh [TESTS=5000] [BUILDS=10000] [RUNS=100]: the project tests list benchmark.
#
# Starts `loupe serve` (plugins auth, builds) on a fresh SQLite database, and on a fresh
# PostgreSQL schema when LOUPE_BENCH_POSTGRES_URL is set; writes straight into the builds
# plugin's tables one project's BUILDS reference builds of `main` spread over the last 90 days,
# TESTS tests with a diff each in the latest build, and their counters (builds and changes per
# test and day over those 90 days, one test in ten flaky with a few recurring changes); then
# times RUNS requests of GET /projects/default/default/tests for the metrics periods, a search
# and a page past the first, and prints p50/p99 against the target (p99 under 100 ms).
#
# Environment: LOUPE_BIN (default <repo>/build/bin/loupe; plugins from the `plugins` folder next
# to its `bin`), LOUPE_PLUGIN_DIR, LOUPE_BENCH_POSTGRES_URL (postgresql://user@host:port/db).
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
TESTS=${1:-5000}
BUILDS=${2:-10000}
RUNS=${3:-100}
[[ $TESTS =~ ^[1-9][0-9]*$ && $BUILDS =~ ^[1-9][0-9]*$ && $RUNS =~ ^[1-9][0-9]*$ ]] || {
  echo "usage: run.sh [TESTS] [BUILDS] [RUNS]" >&2; exit 1; }
LOUPE_BIN=${LOUPE_BIN:-$ROOT/build/bin/loupe}
PLUGIN_DIR=${LOUPE_PLUGIN_DIR:-$(dirname "$(dirname "$LOUPE_BIN")")/plugins}
TARGET_MS=100
DAYS=90
die() { echo "run.sh: $*" >&2; exit 1; }
[ -x "$LOUPE_BIN" ] || die "no loupe binary at $LOUPE_BIN"
[ -f "$PLUGIN_DIR/builds.so" ] || die "no builds.so in $PLUGIN_DIR"
for tool in curl sqlite3; do command -v $tool >/dev/null || die "$tool not found"; done

WORK=$(mktemp -d)
SERVER_PID=
cleanup() {
  [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null && wait "$SERVER_PID" 2>/dev/null
  rm -rf "$WORK"
}
trap cleanup EXIT

# Portable SQL; `series(i)` counts 0..N-1 (its WITH clause comes from the caller, per engine).
# The builds: reference builds of main, evenly spread over the DAYS before NOW_MS, the last the
# latest.
builds_insert() {
  cat <<SQL
INSERT INTO builds (project_id, number, name, commit_sha, branch, mode, type, job_status,
  parallel, batch_count, partial, merge_queue, subset, complete, valid, screenshot_count,
  conclusion, created_at, updated_at)
SELECT (SELECT id FROM projects WHERE name = 'default'), 1000 + i, 'default',
  '$(printf 'a%.0s' {1..40})', 'main', 'ci', 'reference', 'complete', 0, 1, 0, 0, 0, 1, 1, $TESTS,
  'no-changes', $NOW_MS - CAST($BUILDS - 1 - i AS BIGINT) * $((DAYS * 86400000 / BUILDS)) - 1,
  $NOW_MS - CAST($BUILDS - 1 - i AS BIGINT) * $((DAYS * 86400000 / BUILDS)) - 1
FROM series;
SQL
}
tests_insert() {  # the tests, their screenshot and diff in the latest build
  cat <<SQL
INSERT INTO build_tests (project_id, build_name, name, created_at)
SELECT (SELECT id FROM projects WHERE name = 'default'), 'default',
  'page-' || CAST(i AS TEXT) || '.png', $((NOW_MS - DAYS * 86400000)) FROM series;
INSERT INTO screenshots (build_id, name, blob_key, content_type, test_id, created_at)
SELECT (SELECT MAX(id) FROM builds), t.name, '$(printf 'b%.0s' {1..64})', 'image/png', t.id, $NOW_MS
FROM build_tests t;
INSERT INTO screenshot_diffs (build_id, base_screenshot_id, head_screenshot_id, test_id,
  job_status, score, created_at, updated_at)
SELECT s.build_id, s.id, s.id, s.test_id, 'complete', 0, $NOW_MS, $NOW_MS FROM screenshots s;
SQL
}
counters_insert() {  # per test and day: the builds counted; changes for one test in ten
  cat <<SQL
INSERT INTO test_stats_builds (test_id, day, value)
SELECT t.id, $((NOW_MS / 86400000 * 86400000)) - CAST(d.i AS BIGINT) * 86400000,
  $(( (BUILDS + DAYS - 1) / DAYS ))
FROM build_tests t CROSS JOIN (SELECT i FROM series WHERE i < $DAYS) AS d;
INSERT INTO test_stats_fingerprints (test_id, fingerprint, day, value)
SELECT t.id, 'v1:g16:d1:t0.002,0.02,0.08:' || CAST(d.i % 3 AS TEXT) || '000000000000000',
  $((NOW_MS / 86400000 * 86400000)) - CAST(d.i AS BIGINT) * 86400000, 1 + d.i % 4
FROM build_tests t CROSS JOIN (SELECT i FROM series WHERE i < $DAYS) AS d
WHERE t.id % 10 = 0;
SQL
}

percentile() {  # percentile P (0-100) of the sorted numbers on stdin
  awk -v p="$1" '{ v[NR] = $1 } END { i = int((NR * p + 99) / 100); if (i < 1) i = 1; print v[i] }'
}

time_query() {  # time_query LABEL QUERY: RUNS requests, prints p50/p99 in ms against the target
  local label=$1 query=$2 times=$WORK/times status
  : >"$times"
  status=$(curl -s -o "$WORK/answer.json" -w '%{http_code}' -H "Authorization: Bearer $PAT" \
    "$BASE/v2/projects/default/default/tests?$query")
  [ "$status" = 200 ] || die "$label: HTTP $status: $(head -c 300 "$WORK/answer.json")"
  for _ in $(seq "$RUNS"); do
    curl -s -o /dev/null -w '%{time_total}\n' -H "Authorization: Bearer $PAT" \
      "$BASE/v2/projects/default/default/tests?$query" | awk '{ printf "%.2f\n", $1 * 1000 }' >>"$times"
  done
  local p50 p99 total
  p50=$(sort -n "$times" | percentile 50)
  p99=$(sort -n "$times" | percentile 99)
  total=$(grep -o '"pageInfo": *{[^}]*}' "$WORK/answer.json" | sed -n 's/.*"total": *\([0-9]*\).*/\1/p')
  printf '%-11s %-30s %5s tests  p50 %7.2f ms  p99 %7.2f ms  %s\n' "$DB_LABEL" "$label" "$total" "$p50" "$p99" \
    "$(awk -v p="$p99" -v t=$TARGET_MS 'BEGIN { printf "(target p99 < %d ms: %s)", t, (p < t ? "met" : "MISSED") }')"
}

run_on() {  # run_on LABEL DB_URL
  DB_LABEL=$1
  local url=$2 data=$WORK/data-$1
  mkdir -p "$data"
  "$LOUPE_BIN" --config "$ROOT/etc/loupe.properties" --set http.port=0 \
    --set http.listen_address=127.0.0.1 --set "data.dir=$data" --set "db.url=$url" \
    --set "plugins.path=$PLUGIN_DIR" --set plugins.enabled=auth,builds \
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
  NOW_MS=$(($(date +%s) * 1000))
  local started=$SECONDS n=$((BUILDS > TESTS ? BUILDS : TESTS))
  if [ "$1" = sqlite ]; then
    local with="WITH RECURSIVE series(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM series WHERE i + 1 < "
    { echo "${with}$BUILDS)"; builds_insert
      echo "${with}$TESTS)"; tests_insert | sed -n '1,3p'
      tests_insert | sed '1,3d'
      echo "${with}$n)"; counters_insert | sed -n '1,4p'
      echo "${with}$n)"; counters_insert | sed '1,4d'
      echo "ANALYZE;"; } | sqlite3 -cmd ".timeout 10000" "${url#sqlite:}"
  else
    local with="WITH series(i) AS (SELECT generate_series(0, "
    { echo "${with}$BUILDS - 1))"; builds_insert
      echo "${with}$TESTS - 1))"; tests_insert | sed -n '1,3p'
      tests_insert | sed '1,3d'
      echo "${with}$n - 1))"; counters_insert | sed -n '1,4p'
      echo "${with}$n - 1))"; counters_insert | sed '1,4d'
      echo "VACUUM ANALYZE builds, build_tests, screenshots, screenshot_diffs, test_stats_builds, test_stats_fingerprints;"; } | psql -q -v ON_ERROR_STOP=1 "$url" >/dev/null
  fi
  echo "$DB_LABEL: $BUILDS builds, $TESTS tests and their counters written in $((SECONDS - started)) s"
  time_query "last 7 days, first page" "metricsPeriod=LAST_7_DAYS"
  time_query "last 90 days, first page" "metricsPeriod=LAST_90_DAYS"
  time_query "last 7 days, page 50" "metricsPeriod=LAST_7_DAYS&page=50"
  time_query "search 'page-12'" "search=page-12"
  kill "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null || true
  SERVER_PID=
}

echo "tests list benchmark: $TESTS tests, $BUILDS reference builds over $DAYS days, $RUNS requests per query"
run_on sqlite "sqlite:$WORK/loupe.db"
if [ -n "${LOUPE_BENCH_POSTGRES_URL:-}" ]; then
  command -v psql >/dev/null || die "psql not found"
  SCHEMA=bench_tests_$$
  psql -q -v ON_ERROR_STOP=1 "$LOUPE_BENCH_POSTGRES_URL" -c "CREATE SCHEMA $SCHEMA"
  trap 'psql -q "$LOUPE_BENCH_POSTGRES_URL" -c "DROP SCHEMA IF EXISTS $SCHEMA CASCADE" >/dev/null 2>&1; cleanup' EXIT
  sep='?'; [[ $LOUPE_BENCH_POSTGRES_URL == *\?* ]] && sep='&'
  run_on postgresql "$LOUPE_BENCH_POSTGRES_URL${sep}options=-csearch_path%3D$SCHEMA"
else
  echo "postgresql: skipped (set LOUPE_BENCH_POSTGRES_URL)"
fi
