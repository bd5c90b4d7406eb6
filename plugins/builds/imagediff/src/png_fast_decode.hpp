#pragma once
// The fast PNG decoder for what browsers write: 8-bit RGB or RGBA, not interlaced, no tRNS or
// PLTE. The IDAT stream is inflated in one call by libdeflate (about 9x faster than zlib here)
// and the rows are unfiltered with SIMD. Output is byte-identical to libspng's RGBA8 decode.

#include <loupe/imagediff/imagediff.hpp>
#include <span>

#include "decode_context.hpp"

namespace loupe::imagediff {

/// Decodes `png` into `out` and returns true, or returns false when the file is not one this
/// decoder takes, or looks damaged in any way: libspng then decodes it or reports the error.
/// The caller has checked the pixel limit.
bool decode_png_fast(std::span<const uint8_t> png, Image& out, DecodeContext& context);

}  // namespace loupe::imagediff
