#include "argos_score.hpp"

#include <algorithm>

namespace loupe::imagediff {

double base_pass_threshold(double threshold) {
    return 0.15 * (2 * threshold);
}

double color_pass_threshold(double threshold) {
    return 0.0225 * (2 * threshold);
}

void apply_argos_rule(DiffResult& result, double threshold) {
    const double r = 2 * threshold;
    const double pixels = static_cast<double>(uint64_t{result.width} * result.height);
    PassResult& a = result.base_pass;
    PassResult& b = result.color_pass;
    a.threshold = base_pass_threshold(threshold);
    b.threshold = color_pass_threshold(threshold);
    a.fraction = pixels > 0 ? static_cast<double>(a.differing_pixels) / pixels : 0.0;
    b.fraction = pixels > 0 ? static_cast<double>(b.differing_pixels) / pixels : 0.0;

    // Pass A is ignored below 0.02% of the image or 20 pixels, whichever is smaller; pass B
    // below 3% (both scaled by r).
    const double base_floor = pixels > 0 ? std::min(0.0002 * r, 20 * r / pixels) : 0.0;
    const double color_floor = 0.03 * r;
    a.adjusted = a.fraction < base_floor ? 0.0 : a.fraction;
    b.adjusted = b.fraction < color_floor ? 0.0 : b.fraction;

    if (a.adjusted > 0 && a.adjusted >= b.adjusted) {
        result.chosen_pass = 1;
        result.score = a.adjusted;
    } else if (b.adjusted > a.adjusted && b.adjusted > 0) {
        result.chosen_pass = 2;
        result.score = b.adjusted;
    } else {
        result.chosen_pass = 0;
        result.score = 0;
    }
    result.verdict = result.score > 0 ? Verdict::changed : Verdict::unchanged;
}

}  // namespace loupe::imagediff
