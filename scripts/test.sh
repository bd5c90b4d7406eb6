#!/usr/bin/env bash
# test.sh [BUILD_DIR]: build Loupe and run the whole test suite twice, on SQLite and on a
# throwaway PostgreSQL cluster started for the run (or the server in LOUPE_TEST_POSTGRES_URL).
# Environment: LOUPE_SANITIZE=1 builds and tests under ASan+UBSan; LOUPE_WERROR=1;
# LOUPE_TEST_EXCLUDE=REGEX leaves out the ctest tests whose names match (e.g. web_browser);
# LOUPE_TEST_DATABASES=sqlite skips the PostgreSQL pass (default: both).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${1:-$ROOT/build}
LOUPE_TARGETS=all "$ROOT/scripts/build.sh" "$BUILD"

# npm test dependencies: the official Argos CLIs (tests/e2e), the S3 server s3rver (tests/s3),
# playwright-core (tests/browser), the OpenAPI validator and Argos API client (tests/openapi),
# sqids (tests/sqids), helm and the Kubernetes schemas (tests/helm) and the diff peers (bench).
for folder in tests/e2e tests/s3 tests/browser tests/openapi tests/sqids tests/helm bench; do
  # Installed when missing, or again when the lock file changed since (npm writes its own copy
  # of the lock into node_modules at each install).
  lock="$ROOT/$folder/package-lock.json"
  if [ -f "$lock" ] && { [ ! -d "$ROOT/$folder/node_modules" ] ||
    [ "$lock" -nt "$ROOT/$folder/node_modules/.package-lock.json" ]; }; then
    # Every lock file lists each platform's optional binaries, so `npm ci` installs exactly it.
    (cd "$ROOT/$folder" && npm ci --no-audit --no-fund --loglevel=error)
  fi
done

# The screenshot corpus for the diff-engine agreement test, rendered by headless Chromium with
# the shared script (about 4 minutes). Without it the agreement test skips itself.
CORPUS_SCRIPT=${LOUPE_CORPUS_SCRIPT:-$ROOT/../shared/bench/make-corpus.sh}
if [ ! -f "$ROOT/bench/corpus/corpus.tsv" ] && [ -f "$CORPUS_SCRIPT" ] && command -v chromium >/dev/null; then
  # Headless Chromium now and then fails to capture one of the tall pages (the script then
  # stops): a failed attempt is thrown away and the corpus rendered again, up to three times.
  for attempt in 1 2 3; do
    echo "== rendering the diff corpus (attempt $attempt of 3)"
    if bash "$CORPUS_SCRIPT" "$ROOT/bench/corpus"; then break; fi
    rm -rf "$ROOT/bench/corpus"
    if [ "$attempt" = 3 ]; then
      echo "test.sh: Chromium failed to render the diff corpus three times" >&2
      exit 1
    fi
  done
fi

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

PG_DIR=""
cleanup() {
  if [ -n "$PG_DIR" ]; then
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n1)/pg_ctl" -D "$PG_DIR" -m immediate stop >/dev/null 2>&1 || true
    else "$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n1)/pg_ctl" -D "$PG_DIR" -m immediate stop >/dev/null 2>&1 || true; fi
    rm -rf "$PG_DIR"
  fi
}
trap cleanup EXIT

PG_URL=${LOUPE_TEST_POSTGRES_URL:-}
if [ "${LOUPE_TEST_DATABASES:-both}" = sqlite ]; then
  PG_URL=none
elif [ -z "$PG_URL" ]; then
  PG_DIR=$(mktemp -d /tmp/loupe-test-pg.XXXXXX)
  PG_PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  PG_URL=$(bash "$ROOT/.ci/start-postgres.sh" "$PG_DIR" "$PG_PORT")
fi

EXCLUDE=()
if [ -n "${LOUPE_TEST_EXCLUDE:-}" ]; then EXCLUDE=(-E "$LOUPE_TEST_EXCLUDE"); fi

echo "== tests on SQLite"
(cd "$BUILD" && env -u LOUPE_TEST_POSTGRES_URL ctest --output-on-failure -j "${LOUPE_TEST_JOBS:-2}" --timeout 600 "${EXCLUDE[@]}")
if [ "$PG_URL" = none ]; then exit 0; fi
echo "== tests on PostgreSQL ($PG_URL)"
(cd "$BUILD" && LOUPE_TEST_POSTGRES_URL="$PG_URL" ctest --output-on-failure -j "${LOUPE_TEST_JOBS:-2}" --timeout 600 -L 'db|e2e|s3' "${EXCLUDE[@]}")
