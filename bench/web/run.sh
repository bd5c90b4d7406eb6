#!/usr/bin/env bash
# run.sh [BUILD_DIR] [DIFFS]: opens a build of DIFFS diffs (default 5,000) in Debian's Chromium
# and prints, against the review page's targets, the time from navigation to the first diff
# visible and to the whole list being interactive, a search's and a filter's answer time, the
# time per frame scrolling the list, and the transfer size of the page's code. Needs the build (with the web
# plugin's front end), tests/browser/node_modules (playwright-core) and tests/e2e/node_modules.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=${1:-$ROOT/build}
export LOUPE_BIN=${LOUPE_BIN:-$BUILD/bin/loupe}
export LOUPE_PLUGIN_DIR=${LOUPE_PLUGIN_DIR:-$BUILD/plugins}
export LOUPE_SOURCE_DIR=$ROOT
exec node "$ROOT/bench/web/web-bench.mjs" "${2:-5000}"
