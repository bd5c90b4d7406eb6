#!/usr/bin/env bash
# build.sh [BUILD_DIR]: configure and build Loupe (Release with debug info) with -j2.
# Environment: LOUPE_SANITIZE=1 (ASan+UBSan), LOUPE_WERROR=1 (warnings as errors).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${1:-$ROOT/build}
args=(-S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo)
command -v ccache >/dev/null && args+=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
# Always passed explicitly, so a reused build folder never keeps an earlier run's choice.
if [ "${LOUPE_SANITIZE:-0}" = 1 ]; then args+=(-DLOUPE_SANITIZE=ON); else args+=(-DLOUPE_SANITIZE=OFF); fi
if [ "${LOUPE_WERROR:-0}" = 1 ]; then args+=(-DCMAKE_COMPILE_WARNING_AS_ERROR=ON); else args+=(-DCMAKE_COMPILE_WARNING_AS_ERROR=OFF); fi
cmake "${args[@]}" >/dev/null
cmake --build "$BUILD" -j "${LOUPE_JOBS:-2}"
