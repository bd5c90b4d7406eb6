#!/usr/bin/env bash
# tests/fuzz/run.sh [SECONDS]
#
# Builds the image diff fuzzer with clang (libFuzzer + ASan + UBSan) in its own build directory
# and runs it for SECONDS (default 60) on a seed corpus it generates. Findings (crash-*,
# timeout-*, oom-* files) land in the build directory; the exit status is non-zero if any.
#
# Environment: LOUPE_FUZZ_BUILD_DIR (default: build-fuzz at the repository root),
#              LOUPE_FUZZ_JOBS (parallel fuzzing processes, default 1),
#              LOUPE_FUZZ_ARGS (extra libFuzzer flags).
# To fuzz longer, pass more seconds; the corpus in $LOUPE_FUZZ_BUILD_DIR/corpus grows across runs.
set -euo pipefail

seconds=${1:-60}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
build=${LOUPE_FUZZ_BUILD_DIR:-$repo/build-fuzz}
jobs=${LOUPE_FUZZ_JOBS:-1}

CC=clang CXX=clang++ cmake -S "$here" -B "$build" -DLOUPE_FUZZ=ON \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" --target loupe_imagediff_fuzz loupe_imagediff_fuzz_seeds -j2

mkdir -p "$build/corpus" "$build/findings"
"$build/loupe_imagediff_fuzz_seeds" "$build/seeds"

parallel=()
if [ "$jobs" -gt 1 ]; then
  parallel=(-fork="$jobs")
fi
# shellcheck disable=SC2086 # LOUPE_FUZZ_ARGS is a list of flags
"$build/loupe_imagediff_fuzz" \
  -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
  -dict="$here/imagediff.dict" -artifact_prefix="$build/findings/" -print_final_stats=1 \
  "${parallel[@]}" ${LOUPE_FUZZ_ARGS:-} "$build/corpus" "$build/seeds"
