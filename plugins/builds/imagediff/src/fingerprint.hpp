#pragma once
// The mask fingerprint (imagediff.hpp mask_fingerprint) on a 1-bit mask, the form compare()
// already holds its masks in, so a diff's fingerprint costs no decode.

#include <cstddef>
#include <cstdint>
#include <string>

namespace loupe::imagediff {

/// `height` rows of `stride` bytes; a row starts with `width` bits, most significant bit first,
/// 1 = "on". Bits past `width` are ignored.
struct MaskBits {
    const uint8_t* rows = nullptr;
    size_t stride = 0;
    uint32_t width = 0;
    uint32_t height = 0;
};

std::string mask_fingerprint(const MaskBits& mask);

}  // namespace loupe::imagediff
