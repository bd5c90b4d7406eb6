#pragma once
// Fast PNG writing with libdeflate at level 1: RGBA8 images (encode_png) and 1-bit diff masks.

#include <cstdint>
#include <span>
#include <vector>

namespace loupe::imagediff::png {

/// Bytes of one 1-bit scanline including its filter byte.
inline size_t mask_row_bytes(uint32_t width) {
    return 1 + (size_t{width} + 7) / 8;
}

/// A diff mask PNG from ready-made 1-bit scanlines (filter byte 0, most significant bit
/// first): a two-entry palette, 0 = transparent black and 1 = opaque red (255,0,0,255), which
/// any decoder expands to the red-on-transparent RGBA mask Argos produces, at 1/32 the size.
std::vector<uint8_t> encode_mask(std::span<const uint8_t> scanlines, uint32_t width,
                                 uint32_t height);

}  // namespace loupe::imagediff::png
