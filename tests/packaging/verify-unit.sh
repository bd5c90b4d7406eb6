#!/usr/bin/env bash
# tests/packaging/verify-unit.sh BUILD_DIR: systemd-analyze verify on etc/loupe.service, with
# ExecStart pointed at the build's loupe (the packaging test verifies the installed unit).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=$(cd "$1" && pwd)
command -v systemd-analyze >/dev/null || { echo "SKIP: systemd-analyze is not installed"; exit 77; }
work=$(mktemp -d /tmp/loupe-unit.XXXXXX)
trap 'rm -rf "$work"' EXIT
sed "s|/usr/bin/loupe|$BUILD/bin/loupe|" "$ROOT/etc/loupe.service" >"$work/loupe.service"
grep -q "^ExecStart=$BUILD/bin/loupe " "$work/loupe.service" || { echo "FAIL: no ExecStart=/usr/bin/loupe"; exit 1; }
# The manual page is installed by the package only.
if ! out=$(systemd-analyze verify --man=no "$work/loupe.service" 2>&1) || [ -n "$out" ]; then
  echo "FAIL: systemd-analyze verify etc/loupe.service:"
  echo "$out"
  exit 1
fi
echo "ok: systemd-analyze verify found nothing to report in etc/loupe.service"
