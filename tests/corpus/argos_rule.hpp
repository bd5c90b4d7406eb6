#pragma once
// Argos's decision (reference §5.5.2) recomputed from EXACT differing-pixel counts. Argos itself
// reads odiff's percentage rounded to two decimals; the agreement test deliberately does not.

#include <algorithm>
#include <cstdint>

namespace loupe::corpus {

struct PassCounts {
    uint64_t base_pass = 0;   ///< t = 0.15 r, anti-aliasing ignored
    uint64_t color_pass = 0;  ///< t = 0.0225 r
};

/// True when Argos's rule, applied to exact counts on a canvas of `pixels`, says "changed".
inline bool argos_changed(PassCounts counts, uint64_t pixels, double threshold = 0.5) {
    if (pixels == 0) {
        return false;
    }
    const double rel = 2 * threshold;
    const double px = static_cast<double>(pixels);
    const double base = static_cast<double>(counts.base_pass) / px;
    const double color = static_cast<double>(counts.color_pass) / px;
    const double base_floor = std::min(0.0002 * rel, 20 * rel / px);
    const double color_floor = 0.03 * rel;
    const double base_adjusted = base < base_floor ? 0 : base;
    const double color_adjusted = color < color_floor ? 0 : color;
    return base_adjusted > 0 || color_adjusted > 0;
}

}  // namespace loupe::corpus
