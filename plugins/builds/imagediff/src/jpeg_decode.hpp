#pragma once
// JPEG decoding with libjpeg-turbo's TurboJPEG 2.1 API, straight to RGBA8.

#include <loupe/imagediff/imagediff.hpp>
#include <span>

#include "decode_context.hpp"

namespace loupe::imagediff {

/// Throws DecodeError for malformed or truncated files (libjpeg-turbo warnings included),
/// unsupported colour spaces (CMYK) and images over the pixel limit.
void decode_jpeg(std::span<const uint8_t> jpeg, Image& out, const DecodeOptions& options,
                 DecodeContext& context);

/// Dimensions from the JPEG header only.
Dimensions read_jpeg_dimensions(std::span<const uint8_t> jpeg, DecodeContext& context);

}  // namespace loupe::imagediff
