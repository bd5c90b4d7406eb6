#!/usr/bin/env bash
# self-check.sh [BUILD_DIR]: the soak must fail when a server goes down without the chaos loop
# killing it. A short soak on SQLite in which, right after the first kill, another program
# holds the port for a few seconds and answers /healthz like a Loupe (as a server of another
# test on the same machine could): the restarted server cannot listen and exits. The soak has
# to print that server's output and exit status, and exit non-zero.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$HERE/../loupe-build.sh" "$@"
log=$(mktemp "${TMPDIR:-/tmp}/loupe-soak-self-check.XXXXXX")
trap 'rm -f "$log"' EXIT
status=0
node "$HERE/soak.mjs" --seconds 30 --kill-every 12 --clients 4 --port-thief-after-kill 1 >"$log" 2>&1 ||
  status=$?
fail() {
  cat "$log"
  echo "FAIL: $*" >&2
  exit 1
}
[ "$status" != 0 ] || fail "the soak passed although a server exited by itself"
grep -q "A SERVER WENT DOWN BY ITSELF" "$log" || fail "the soak's result does not say a server went down"
grep -q "exit code 1 while starting" "$log" || fail "the soak did not report the exit status"
grep -q "Address already in use" "$log" || fail "the soak did not print the server's output"
echo "ok: the soak failed and said why (exit status and output of the server that went down)"
