#pragma once
// Equality screening of RGBA8 pixel runs, vectorised (AVX2 when the CPU has it, else SSE2).
// Only the pixels these find go on to the per-pixel colour arithmetic.

#include <cstddef>
#include <cstdint>

#include "cpu_features.hpp"

namespace loupe::imagediff {

/// Index of the first of `count` pixels where `a` and `b` differ, or `count`.
size_t find_first_difference(const uint8_t* a, const uint8_t* b, size_t count,
                             const CpuFeatures& cpu = cpu_features());

/// Index of the first of `count` pixels that is not transparent black (all four bytes 0), or
/// `count`: where an image differs from the padding next to it.
size_t find_first_nonzero(const uint8_t* pixels, size_t count,
                          const CpuFeatures& cpu = cpu_features());

}  // namespace loupe::imagediff
