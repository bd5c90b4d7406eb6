#!/usr/bin/env bash
# scripts/install-deps.sh as the README's first command runs it: as root it calls apt-get
# directly (a fresh Debian container has no sudo), as another user through sudo, and not at all
# when every package is installed. dpkg-query, apt-get and sudo are stand-ins on PATH that
# record their calls; nothing is installed.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
WORK=$(mktemp -d /tmp/loupe-install-deps-test.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
chmod 755 "$WORK"
failures=0
check() {  # check DESCRIPTION COMMAND...
  if "${@:2}"; then echo "ok - $1"; else echo "not ok - $1"; failures=$((failures + 1)); fi
}

make_bin() {  # make_bin DIR INSTALLED(0|1) WITH_SUDO(0|1)
  mkdir -p "$1"
  cat >"$1/dpkg-query" <<STUB
#!/bin/sh
[ "$2" = 1 ] && printf 'install ok installed'
exit 0
STUB
  cat >"$1/apt-get" <<STUB
#!/bin/sh
echo "uid=\$(id -u) apt-get \$*" >>"$WORK/calls.log"
STUB
  if [ "$3" = 1 ]; then
    cat >"$1/sudo" <<STUB
#!/bin/sh
echo "sudo \$1" >>"$WORK/calls.log"
exec "\$@"
STUB
  fi
  chmod 755 "$1"/*
}

run_as() {  # run_as USER BIN: the script with only BIN and the system folders on PATH
  : >"$WORK/calls.log"
  chmod 666 "$WORK/calls.log"
  local path="$2:/usr/bin:/bin" status=0
  if [ "$1" = "$(id -un)" ]; then
    env PATH="$path" bash "$ROOT/scripts/install-deps.sh" >"$WORK/out.log" 2>&1 || status=$?
  else
    runuser -u "$1" -- env PATH="$path" bash "$ROOT/scripts/install-deps.sh" >"$WORK/out.log" 2>&1 ||
      status=$?
  fi
  return "$status"
}

make_bin "$WORK/missing" 0 1
make_bin "$WORK/missing-nosudo" 0 0
make_bin "$WORK/installed" 1 0

user_checks() {  # user_checks USER
  run_as "$1" "$WORK/missing" || true
  check "as a user: apt-get through sudo" grep -q "^sudo apt-get" "$WORK/calls.log"
  if ! command -v sudo >/dev/null; then
    run_as "$1" "$WORK/missing-nosudo" && status=0 || status=$?
    check "as a user without sudo: exit 1" test "$status" = 1
    check "as a user without sudo: a clear message" grep -q "run this script as root, or install sudo" "$WORK/out.log"
  fi
  run_as "$1" "$WORK/installed"
  check "as a user, everything installed: nothing run" test ! -s "$WORK/calls.log"
}

if [ "$(id -u)" = 0 ]; then
  run_as root "$WORK/missing"
  check "as root: apt-get runs directly" grep -q "^uid=0 apt-get install" "$WORK/calls.log"
  check "as root: no sudo" bash -c "! grep -q '^sudo' '$WORK/calls.log'"
  if command -v runuser >/dev/null && id nobody >/dev/null 2>&1 &&
     runuser -u nobody -- test -r "$ROOT/scripts/install-deps.sh"; then
    user_checks nobody
  else
    echo "ok - as a user: skipped (no runuser or nobody, or the tree is not readable by it)"
  fi
else
  user_checks "$(id -un)"
fi
echo "install-deps: $failures failed"
[ "$failures" = 0 ]
