#pragma once
// Anti-aliasing detection (Vysniauskas 2009) exactly as odiff 4.5 implements it
// (src/antialiasing.zig). Unlike pixelmatch, which needs the darkest neighbour flat in both
// images or the brightest flat in both, odiff needs one of them flat in each image.

#include <cstdint>

#include "padded_view.hpp"

namespace loupe::imagediff {

/// True when the pixel at (x, y) looks anti-aliased in `image`, judged with `other` for the
/// flat-neighbour test. Both views share one canvas.
bool is_antialiased_in(uint32_t x, uint32_t y, const PaddedView& image, const PaddedView& other);

/// odiff's test: anti-aliased as seen from either image.
inline bool is_antialiased(uint32_t x, uint32_t y, const PaddedView& base, const PaddedView& head) {
    return is_antialiased_in(x, y, base, head) || is_antialiased_in(x, y, head, base);
}

}  // namespace loupe::imagediff
