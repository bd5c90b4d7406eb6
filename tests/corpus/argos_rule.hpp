#pragma once
// Argos's choice between its two odiff passes recomputed from EXACT differing-pixel counts. Argos
// itself reads odiff's percentage rounded to two decimals; the agreement test deliberately does
// not.

#include <algorithm>
#include <cstdint>

namespace loupe::corpus {

struct PassCounts {
    uint64_t base_pass = 0;   ///< t = 0.15 r, anti-aliasing ignored
    uint64_t color_pass = 0;  ///< t = 0.0225 r
};

/// True when Argos's rule says "changed" for the two passes' differing fractions of a canvas of
/// `pixels` (the base pass's floor is min(0.02% r, 20 r pixels); the colour pass's is 3% r).
inline bool argos_changed(double base_fraction, double color_fraction, uint64_t pixels,
                          double threshold = 0.5) {
    if (pixels == 0) {
        return false;
    }
    const double rel = 2 * threshold;
    const double base_floor = std::min(0.0002 * rel, 20 * rel / static_cast<double>(pixels));
    const double color_floor = 0.03 * rel;
    const double base_adjusted = base_fraction < base_floor ? 0 : base_fraction;
    const double color_adjusted = color_fraction < color_floor ? 0 : color_fraction;
    return base_adjusted > 0 || color_adjusted > 0;
}

/// The same rule on exact differing-pixel counts.
inline bool argos_changed(PassCounts counts, uint64_t pixels, double threshold = 0.5) {
    const double px = static_cast<double>(pixels);
    return pixels != 0 &&
           argos_changed(static_cast<double>(counts.base_pass) / px,
                         static_cast<double>(counts.color_pass) / px, pixels, threshold);
}

}  // namespace loupe::corpus
