#pragma once
// Argos's decision between its two odiff passes (apply_argos_rule), applied to
// exact pixel counts instead of odiff's percentage rounded to two decimals.

#include <loupe/imagediff/imagediff.hpp>

namespace loupe::imagediff {

/// The two odiff thresholds for a per-screenshot threshold t: 0.15r and 0.0225r, r = 2t.
double base_pass_threshold(double threshold);
double color_pass_threshold(double threshold);

/// From result.width/height and both passes' differing_pixels, fills the passes' fraction and
/// adjusted score, chosen_pass, score and verdict.
void apply_argos_rule(DiffResult& result, double threshold);

}  // namespace loupe::imagediff
