#pragma once
// The general PNG decoder (libspng): every colour type, bit depth and interlacing, tRNS
// applied, converted to RGBA8. The fast path falls back here for anything unusual.

#include <loupe/imagediff/imagediff.hpp>
#include <span>

namespace loupe::imagediff {

/// Decodes any valid PNG into RGBA8. Throws DecodeError for malformed files and images over
/// the pixel limit (checked from the header before any allocation).
void decode_png_spng(std::span<const uint8_t> png, Image& out, const DecodeOptions& options);

}  // namespace loupe::imagediff
