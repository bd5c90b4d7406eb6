#!/usr/bin/env bash
# measure-first-start.sh [REPOSITORY]: how long a newcomer waits, on this machine, from a fresh
# clone to the first request Loupe answers. Clones REPOSITORY (default: this one, its committed
# HEAD) into a temporary folder and runs the README's first command there:
#   scripts/install-deps.sh && scripts/build.sh && build/bin/loupe --config etc/loupe.properties serve
# (on a free port instead of 8080), then polls GET /healthz. Prints the time of each step.
# ccache keeps compiled objects across runs (the build uses it when installed), so a repeat
# run is far faster than a first one: CCACHE_DISABLE=1 measures a first build. ccache reuses
# objects only for a clone under its base_dir: LOUPE_MEASURE_DIR (default $TMPDIR or /tmp)
# chooses the parent folder of the clone.
set -euo pipefail
SOURCE=${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
WORK=$(mktemp -d "${LOUPE_MEASURE_DIR:-${TMPDIR:-/tmp}}/loupe-first-start.XXXXXX")
server=""
cleanup() {
  if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT

now() { date +%s.%N; }
since() { python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):7.1f} s')" "$1" "$(now)"; }
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')

started=$(now)
git clone --quiet "$SOURCE" "$WORK/loupe"
cd "$WORK/loupe"
echo "clone:            $(since "$started")"
step=$(now)
scripts/install-deps.sh
echo "install-deps.sh:  $(since "$step")"
step=$(now)
scripts/build.sh >"$WORK/build.log" 2>&1 || { tail -n 30 "$WORK/build.log"; exit 1; }
echo "build.sh:         $(since "$step") ($(grep -c 'Building' "$WORK/build.log" || true) compile steps)"
step=$(now)
build/bin/loupe --config etc/loupe.properties --set "http.port=$port" serve >"$WORK/serve.log" 2>&1 &
server=$!
until curl -fsS -o /dev/null "http://127.0.0.1:$port/healthz" 2>/dev/null; do
  if ! kill -0 "$server" 2>/dev/null; then cat "$WORK/serve.log"; exit 1; fi
  sleep 0.05
done
echo "serve → /healthz: $(since "$step")"
echo "clone → first served request: $(since "$started")${CCACHE_DISABLE:+ (ccache disabled)}"
