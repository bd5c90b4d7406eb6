#!/usr/bin/env bash
# run.sh [BUILD_DIR] [-- deploy.mjs options]: the deployment benchmark.
#
# Generates a 5,000-file Storybook-like site (gen-site.mjs, cached in $TMPDIR), deploys it with
# the real Argos CLI (tests/e2e/node_modules; `npm ci` there) to a `loupe serve` started here, then
# serves it to 16 concurrent clients with wrk, from Loupe and from Debian's nginx (same files, same
# run). Needs: apt-get install wrk nginx-light.
# Environment: LOUPE_BIN, LOUPE_PLUGIN_DIR, LOUPE_BENCH_POSTGRES_URL (PostgreSQL instead of
# SQLite), TMPDIR. Options after `--`: --clients 16 --threads 2 --seconds 15 --runs 2
# --cli latest|4.x --files 5000.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$HERE/../loupe-build.sh" "$@"
set -- "${REST[@]}"
FILES=5000
args=()
while [ $# -gt 0 ]; do
  if [ "$1" = "--files" ]; then FILES=$2; shift 2; else args+=("$1"); shift; fi
done
die() { echo "run.sh: $*" >&2; exit 1; }
[ -f "$LOUPE_PLUGIN_DIR/deployments.so" ] || die "no deployments.so in $LOUPE_PLUGIN_DIR"
command -v wrk >/dev/null || die "wrk not found (apt-get install wrk)"
command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || die "nginx not found (apt-get install nginx-light)"
export PATH=$PATH:/usr/sbin
[ -d "$ROOT/tests/e2e/node_modules/argos-cli-latest" ] || die "no Argos CLI (run 'npm ci' in tests/e2e)"
SITE=${TMPDIR:-/tmp}/loupe-bench-site-$FILES
node "$HERE/gen-site.mjs" --out "$SITE" --files "$FILES"
exec node "$HERE/deploy.mjs" --site "$SITE" "${args[@]}"
