#pragma once
// One sweep over the canvas computes both Argos passes: the colour delta once per differing
// pixel, tested against both cut-offs; the anti-aliasing test only above the lower one.

#include <cstdint>
#include <span>

#include "padded_view.hpp"

namespace loupe::imagediff {

struct PassCounts {
    uint64_t base_pass = 0;   ///< delta above the pass-A cut-off, not anti-aliased
    uint64_t color_pass = 0;  ///< delta above the pass-B cut-off, not anti-aliased
};

/// A masked rectangle on the canvas: [x0, x1) x [y0, y1), clipped to it.
struct CanvasRect {
    uint32_t x0 = 0, y0 = 0, x1 = 0, y1 = 0;
};

/// Pass membership as 1-bit PNG scanlines (a filter byte of 0, then one bit per pixel, most
/// significant first): exactly the IDAT payload of the mask image. Null when no mask is wanted.
struct PassBitmaps {
    uint8_t* base_pass = nullptr;
    uint8_t* color_pass = nullptr;
    size_t row_bytes = 0;
};

struct SweepParams {
    PaddedView base;
    PaddedView head;
    int64_t base_max_delta = 0;   ///< fixed-point cut-off of pass A (the higher one)
    int64_t color_max_delta = 0;  ///< fixed-point cut-off of pass B
    PassBitmaps bitmaps;
    /// Masked rectangles: each row is swept between them, so a masked pixel is never visited
    /// (never counted, never marked) and a sweep without masks runs as before.
    std::span<const CanvasRect> ignored = {};
};

/// Counts rows [row_begin, row_end) of the canvas. Reads neighbours outside that band (the
/// anti-aliasing test), writes only the band's bitmap rows: bands can run on separate threads.
PassCounts sweep_rows(const SweepParams& params, uint32_t row_begin, uint32_t row_end);

}  // namespace loupe::imagediff
