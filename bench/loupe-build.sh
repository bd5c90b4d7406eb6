# Sourced by the benchmarks' run.sh: `source "$HERE/../loupe-build.sh" "$@"` takes an optional
# BUILD_DIR (default <repo>/build) and an optional `--` off the arguments (the rest is left in
# the REST array), sets ROOT and BUILD, exports LOUPE_BIN, LOUPE_PLUGIN_DIR (the build's unless
# already set) and LOUPE_SOURCE_DIR, and exits when there is no loupe binary.
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${1:-$ROOT/build}
[ $# -gt 0 ] && shift
[ "${1:-}" = "--" ] && shift
REST=("$@")
export LOUPE_BIN=${LOUPE_BIN:-$BUILD/bin/loupe}
export LOUPE_PLUGIN_DIR=${LOUPE_PLUGIN_DIR:-$BUILD/plugins}
export LOUPE_SOURCE_DIR=$ROOT
if [ ! -x "$LOUPE_BIN" ]; then
  echo "run.sh: no loupe binary at $LOUPE_BIN (build first: scripts/build.sh $BUILD)" >&2
  exit 1
fi
