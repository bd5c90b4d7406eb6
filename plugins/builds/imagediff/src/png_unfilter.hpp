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

/// The most output rows one step of unfilter_image writes (a wavefront of rows). A step
/// reads only its own scanlines and the output row above them, and steps go top to bottom.
inline constexpr size_t kMaxRowsInFlight = 4;

/// Where the scanlines may sit inside the output buffer itself (`filtered == out + offset`)
/// so that unfilter_image never overwrites a scanline byte before reading it: the output rows
/// a step writes, (y + kMaxRowsInFlight) * width * 4 bytes at most, end before scanline y
/// begins, for every row y. The buffer then needs offset + height * (1 + width *
/// source_bytes) + kUnfilterSlack bytes: a few rows more than the image.
inline size_t in_place_scanline_offset(size_t width, size_t height, int source_bytes) {
    const size_t row_bytes = width * 4;
    const size_t scanline_bytes = 1 + width * static_cast<size_t>(source_bytes);
    // RGB scanlines are shorter than output rows: the output gains on them by the difference
    // per row, so they start that much further in.
    const size_t gain_per_row = row_bytes > scanline_bytes ? row_bytes - scanline_bytes : 0;
    return kMaxRowsInFlight * row_bytes + (height > 0 ? height - 1 : 0) * gain_per_row;
}

/// Reconstructs `height` scanlines into `height` rows of `width` RGBA8 pixels in `out` (alpha
/// 255 for RGB); `filtered` may lie inside `out` as in_place_scanline_offset says. Each scanline is
/// a filter byte (0..4, checked by the caller) followed by width * source_bytes bytes; source_bytes
/// is 3 (RGB) or 4 (RGBA). `zero_row` holds at least width * 4 zero bytes: the "previous row" of
/// the first scanline. `cpu` picks the kernels.
void unfilter_image(const uint8_t* filtered, size_t width, size_t height, int source_bytes,
                    const uint8_t* zero_row, uint8_t* out, const CpuFeatures& cpu = cpu_features());

/// The same, one byte at a time: the portable fallback and the tests' reference.
void unfilter_image_scalar(const uint8_t* filtered, size_t width, size_t height, int source_bytes,
                           const uint8_t* zero_row, uint8_t* out);

}  // namespace loupe::imagediff::png
