#!/usr/bin/env bash
# tests/fuzz/run.sh [SECONDS]
#
# Builds the fuzzers with clang (libFuzzer + ASan + UBSan) in their own build directory and runs
# each for an equal share of SECONDS (default 60 in total):
#   imagediff     image decode + compare, on a seed corpus it generates;
#   comment_body  comment body parser (Markdown and rich-text documents), on comment_body_seeds/;
#   json_body     JSON request body reader and field validators, on json_body_seeds/.
# Findings (crash-*, timeout-*, oom-* files) land in $build/findings/<fuzzer>/; the exit status
# is non-zero if any fuzzer found something (every fuzzer runs all the same).
#
# Environment: LOUPE_FUZZ_BUILD_DIR (default: build-fuzz at the repository root),
#              LOUPE_FUZZ_TARGETS (the fuzzers to run, default all:
#                                  "imagediff comment_body json_body"),
#              LOUPE_FUZZ_JOBS (parallel fuzzing processes per fuzzer, default 1),
#              LOUPE_FUZZ_ARGS (extra libFuzzer flags).
# To fuzz longer, pass more seconds; each fuzzer's corpus in $build/corpus/<fuzzer> grows
# across runs.
set -euo pipefail

seconds=${1:-60}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
build=${LOUPE_FUZZ_BUILD_DIR:-$repo/build-fuzz}
jobs=${LOUPE_FUZZ_JOBS:-1}
read -r -a fuzzers <<<"${LOUPE_FUZZ_TARGETS:-imagediff comment_body json_body}"
share=$((seconds / ${#fuzzers[@]}))
if [ "$share" -lt 1 ]; then share=1; fi

build_targets=()
for fuzzer in "${fuzzers[@]}"; do
  case "$fuzzer" in
    imagediff) build_targets+=(loupe_imagediff_fuzz loupe_imagediff_fuzz_seeds) ;;
    comment_body) build_targets+=(loupe_comment_body_fuzz) ;;
    json_body) build_targets+=(loupe_json_body_fuzz) ;;
    *) echo "run.sh: unknown fuzzer $fuzzer" >&2; exit 2 ;;
  esac
done
CC=clang CXX=clang++ cmake -S "$here" -B "$build" -DLOUPE_FUZZ=ON \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" --target "${build_targets[@]}" -j2

parallel=()
if [ "$jobs" -gt 1 ]; then
  parallel=(-fork="$jobs")
fi

# fuzz NAME BINARY DICT MAX_LEN SEED_DIR: one fuzzer for its share of the time.
fuzz() {
  local name=$1 binary=$2 dict=$3 max_len=$4 seeds=$5
  echo "=== fuzzing $name for $share s"
  mkdir -p "$build/corpus/$name" "$build/findings/$name"
  # shellcheck disable=SC2086 # LOUPE_FUZZ_ARGS is a list of flags
  "$binary" \
    -max_total_time="$share" -timeout=10 -rss_limit_mb=2048 -max_len="$max_len" \
    -dict="$dict" -artifact_prefix="$build/findings/$name/" -print_final_stats=1 \
    "${parallel[@]}" ${LOUPE_FUZZ_ARGS:-} "$build/corpus/$name" "$seeds"
}

status=0
for fuzzer in "${fuzzers[@]}"; do
  case "$fuzzer" in
    imagediff)
      "$build/loupe_imagediff_fuzz_seeds" "$build/seeds"
      fuzz imagediff "$build/loupe_imagediff_fuzz" "$here/imagediff.dict" 65536 "$build/seeds" ||
        status=1
      ;;
    comment_body)
      fuzz comment_body "$build/loupe_comment_body_fuzz" "$here/comment_body.dict" 16384 \
        "$here/comment_body_seeds" || status=1
      ;;
    json_body)
      fuzz json_body "$build/loupe_json_body_fuzz" "$here/json_body.dict" 16384 \
        "$here/json_body_seeds" || status=1
      ;;
  esac
done
exit "$status"
