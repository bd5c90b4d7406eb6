#pragma once
// PNG scanline reconstruction ("unfiltering") of 8-bit RGB and RGBA images into RGBA8.
//
// Sub, Average and Paeth depend on the reconstructed pixel to the left: one pixel per step, a
// chain of dependent instructions. Up to four consecutive such rows run interleaved, each one
// pixel behind the row above it (which is all it needs from that row), so several chains are
// in flight at once. None and Up rows are plain vector code.

#include <cstddef>
#include <cstdint>

#include "cpu_features.hpp"

namespace loupe::imagediff::png {

enum Filter : uint8_t { none = 0, sub = 1, up = 2, average = 3, paeth = 4 };

/// Readable bytes required after the last scanline (vector loads run past it, unused).
inline constexpr size_t kUnfilterSlack = 16;

/// Reconstructs `height` scanlines into `height` rows of `width` RGBA8 pixels in `out` (alpha
/// 255 for RGB). Each scanline is a filter byte (0..4, checked by the caller) followed by
/// width * source_bytes bytes; source_bytes is 3 (RGB) or 4 (RGBA). `zero_row` holds at least
/// width * 4 zero bytes: the "previous row" of the first scanline. `cpu` picks the kernels.
void unfilter_image(const uint8_t* filtered, size_t width, size_t height, int source_bytes,
                    const uint8_t* zero_row, uint8_t* out, const CpuFeatures& cpu = cpu_features());

/// The same, one byte at a time: the portable fallback and the tests' reference.
void unfilter_image_scalar(const uint8_t* filtered, size_t width, size_t height, int source_bytes,
                           const uint8_t* zero_row, uint8_t* out);

}  // namespace loupe::imagediff::png
