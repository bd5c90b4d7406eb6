#!/usr/bin/env bash
# tidy-changed.sh [BASE] [BUILD_DIR]: clang-tidy (the checks of .clang-tidy) on the C++ files
# changed since BASE, failing (exit 1) only on findings in the lines the change added or
# modified, never on the rest of the tree. BASE defaults to the merge base with origin/main, or
# HEAD~1 when that is HEAD itself or there is no origin/main; a clone with a single commit has
# nothing to compare and passes. BUILD_DIR (default build) must hold compile_commands.json,
# i.e. a configured and built tree (generated headers). Uncommitted changes count too.
# Environment: LOUPE_JOBS (default 2) clang-tidy processes at once.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
BASE=${1:-}
BUILD=${2:-$ROOT/build}
if [ ! -f "$BUILD/compile_commands.json" ]; then
  echo "tidy: no $BUILD/compile_commands.json (build first: scripts/build.sh $BUILD)" >&2
  exit 2
fi
if [ -z "$BASE" ]; then
  head=$(git rev-parse HEAD)
  if git rev-parse -q --verify origin/main >/dev/null &&
    BASE=$(git merge-base HEAD origin/main) && [ "$BASE" != "$head" ]; then
    :
  elif git rev-parse -q --verify HEAD~1 >/dev/null; then
    BASE=HEAD~1
  else
    echo "tidy: a single commit, nothing to compare with: no file checked"
    exit 0
  fi
fi
started=$(date +%s)

# A unity build's compile database names its batches, not the files: clang-tidy gets a database
# of its own, one entry per file, from a tree that is configured and never built (configuring
# writes the generated headers).
DB="$BUILD/tidy-compile-db"
cmake -S "$ROOT" -B "$DB" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DLOUPE_UNITY_BUILD=OFF \
  -DLOUPE_SANITIZE=OFF >/dev/null

# Which lines changed, which translation units to run, as a clang-tidy line filter.
plan=$(git diff -U0 --no-color --no-ext-diff --diff-filter=ACMR "$BASE" -- '*.cpp' '*.hpp' |
  python3 "$ROOT/scripts/tidy_plan.py" "$DB/compile_commands.json")
filter=$(printf '%s\n' "$plan" | sed -n 1p)
units=$(printf '%s\n' "$plan" | sed -n '2,$p')
if [ -z "$units" ]; then
  echo "tidy: no changed C++ line since $(git rev-parse --short "$BASE")"
  exit 0
fi
echo "tidy: $(printf '%s\n' "$units" | wc -l) translation unit(s) for the lines changed since $(git rev-parse --short "$BASE")"

# GCC's own warning flags in the compile commands mean nothing to clang: not a finding.
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
printf '%s\n' "$units" | xargs -d '\n' -P "${LOUPE_JOBS:-2}" -n 1 \
  clang-tidy -p "$DB" --quiet --header-filter='.*' --line-filter="$filter" \
  --warnings-as-errors='*' --extra-arg=-Wno-unknown-warning-option >"$log" 2>&1 || status=$?
# Keep the findings and their context; drop the per-file "N warnings generated" chatter.
grep -vE '^[0-9]+ (warning|error)s? (and [0-9]+ (warning|error)s? )?generated\.$|^Suppressed [0-9]+ warnings|^Use -header-filter|^Use -system-headers' "$log" || true
echo "tidy: $(( $(date +%s) - started )) s"
if [ "$status" != 0 ]; then
  echo "tidy: findings in changed lines (above); fix them or, if one is wrong, add // NOLINT(check) with the reason" >&2
  exit 1
fi
echo "tidy: no finding in the changed lines"
