#!/usr/bin/env bash
# build.sh [BUILD_DIR]: configure and build Loupe (optimised, -O2) with -j2: by default
# only what `loupe serve` needs (the executable, the plugins, the review page's front end);
# LOUPE_TARGETS=all (scripts/test.sh) also builds the tests and benchmarks.
# Environment: LOUPE_SANITIZE=1 (ASan+UBSan), LOUPE_WERROR=1 (warnings as errors),
# LOUPE_DEBUG_INFO=1 (with debug information, -g: the first build takes about 1.3x as long; the default
# leaves it out, as CI does), LOUPE_OPT_LEVEL (default 2: -O2; CI's tested-only build uses 1,
# which compiles about a fifth faster; the image loops keep their own -O3 either way),
# LOUPE_TARGETS (CMake targets, default loupe_serve), LOUPE_JOBS (default 2), LOUPE_UNITY (default
# 1: each target compiles in batches of 16 files, about 3x faster from cold; 0 compiles file by
# file, which rebuilds less after a one-file change).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${1:-$ROOT/build}
args=(-S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo)
command -v ccache >/dev/null && args+=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
# Always passed explicitly, so a reused build folder never keeps an earlier run's choice.
if [ "${LOUPE_SANITIZE:-0}" = 1 ]; then
  # -O1 with line tables: stack traces keep file:line, and the instrumented tree compiles about
  # 2.5x faster than at -O2 -g (the hot image loops keep their per-file -O3).
  args+=(-DLOUPE_SANITIZE=ON "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG"
         "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG")
elif [ "${LOUPE_DEBUG_INFO:-0}" = 0 ]; then
  opt=-O${LOUPE_OPT_LEVEL:-2}
  args+=(-DLOUPE_SANITIZE=OFF "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=$opt -DNDEBUG"
         "-DCMAKE_C_FLAGS_RELWITHDEBINFO=$opt -DNDEBUG")
else
  args+=(-DLOUPE_SANITIZE=OFF -U CMAKE_CXX_FLAGS_RELWITHDEBINFO -U CMAKE_C_FLAGS_RELWITHDEBINFO)
fi
if [ "${LOUPE_UNITY:-1}" = 1 ]; then args+=(-DLOUPE_UNITY_BUILD=ON); else args+=(-DLOUPE_UNITY_BUILD=OFF); fi
if [ "${LOUPE_WERROR:-0}" = 1 ]; then args+=(-DCMAKE_COMPILE_WARNING_AS_ERROR=ON); else args+=(-DCMAKE_COMPILE_WARNING_AS_ERROR=OFF); fi
cmake "${args[@]}" >/dev/null
read -r -a targets <<<"${LOUPE_TARGETS:-loupe_serve}"
cmake --build "$BUILD" -j "${LOUPE_JOBS:-2}" --target "${targets[@]}"
