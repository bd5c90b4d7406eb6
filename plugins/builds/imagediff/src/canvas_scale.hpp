#pragma once
// Canvases over CompareOptions::max_canvas_pixels are compared scaled down, as Argos does:
// both images by the same factor, so they stay aligned top-left.

#include <cstdint>
#include <loupe/imagediff/imagediff.hpp>

namespace loupe::imagediff {

struct CanvasSize {
    uint32_t width = 0;
    uint32_t height = 0;
    bool operator==(const CanvasSize&) const = default;
};

/// `canvas` when it has at most `max_pixels` pixels; else both sides times
/// sqrt(max_pixels / pixels), floored (Argos's fitIntoMaxPixels), at least 1, within
/// `max_pixels`. Throws std::invalid_argument when max_pixels is 0.
CanvasSize fit_canvas(CanvasSize canvas, uint64_t max_pixels);

/// `image` placed top-left on a transparent `from` canvas, resampled to `to` (no larger either
/// way) and cropped to the part the image covers; the rest of `to` is transparent, as when the
/// image is padded. Each output pixel averages its block of source pixels (premultiplied alpha,
/// padding counted as transparent), in integers: deterministic. `out` may be `image`: then the
/// image is scaled in place, without a second buffer.
void downscale(const Image& image, Image& out, CanvasSize from, CanvasSize to);

}  // namespace loupe::imagediff
