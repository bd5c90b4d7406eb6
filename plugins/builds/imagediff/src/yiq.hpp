#pragma once
// The YIQ colour distance of pixelmatch and odiff (Kotsarenko & Ramos), bit for bit as odiff
// 4.5 computes it, so that pixel counts match odiff's exactly:
// - the thresholded delta uses odiff's 12-bit fixed point (calculatePixelColorDeltaSimd),
//   with coefficients truncated the way Zig's @intFromFloat truncates;
// - the anti-aliasing test's luma difference uses doubles (calculatePixelBrightnessDelta).
// Pixels with alpha < 255 are blended onto white first; alpha 0 is white.

#include <cstdint>

namespace loupe::imagediff::yiq {

inline constexpr double kMaxDelta = 35215.0;  ///< red against cyan
inline constexpr int kShift = 12;
inline constexpr int64_t kOne = int64_t{1} << kShift;

inline constexpr double kYr = 0.29889531, kYg = 0.58662247, kYb = 0.11448223;
inline constexpr double kIr = 0.59597799, kIg = -0.27417610, kIb = -0.32180189;
inline constexpr double kQr = 0.21147017, kQg = -0.52261711, kQb = 0.31114694;
inline constexpr double kYWeight = 0.5053, kIWeight = 0.299, kQWeight = 0.1957;

constexpr int64_t to_fixed(double value) {
    return static_cast<int64_t>(value * kOne);
}

/// The fixed-point cut-off: a pixel differs when delta_fixed > max_delta_fixed(t).
constexpr int64_t max_delta_fixed(double threshold) {
    return static_cast<int64_t>(kMaxDelta * (threshold * threshold) * static_cast<double>(kOne));
}

inline int64_t blend_fixed(int64_t channel, int64_t alpha) {
    if (alpha == 0) {
        return int64_t{255} << kShift;
    }
    return (int64_t{255} << kShift) + (channel - 255) * alpha * kOne / 255;
}

struct YiqFixed {
    int64_t y, i, q;
};

inline YiqFixed to_yiq_fixed(const uint8_t* rgba) {
    if (rgba[3] == 255) {
        // Opaque: the channel is c << 12 and ((c << 12) * k) >> 12 == c * k exactly.
        const int64_t r = rgba[0];
        const int64_t g = rgba[1];
        const int64_t b = rgba[2];
        return {r * to_fixed(kYr) + g * to_fixed(kYg) + b * to_fixed(kYb),
                r * to_fixed(kIr) + g * to_fixed(kIg) + b * to_fixed(kIb),
                r * to_fixed(kQr) + g * to_fixed(kQg) + b * to_fixed(kQb)};
    }
    const int64_t r = blend_fixed(rgba[0], rgba[3]);
    const int64_t g = blend_fixed(rgba[1], rgba[3]);
    const int64_t b = blend_fixed(rgba[2], rgba[3]);
    // Arithmetic shifts of possibly negative values, as in odiff (well defined since C++20).
    return {(r * to_fixed(kYr) + g * to_fixed(kYg) + b * to_fixed(kYb)) >> kShift,
            (r * to_fixed(kIr) + g * to_fixed(kIg) + b * to_fixed(kIb)) >> kShift,
            (r * to_fixed(kQr) + g * to_fixed(kQg) + b * to_fixed(kQb)) >> kShift};
}

inline int64_t weighted_sum_fixed(int64_t dy, int64_t di, int64_t dq) {
    return (dy * dy * to_fixed(kYWeight) + di * di * to_fixed(kIWeight) +
            dq * dq * to_fixed(kQWeight)) >>
           (2 * kShift);
}

/// odiff's squared YIQ distance, scaled by 2^12.
inline int64_t delta_fixed(const uint8_t* base_rgba, const uint8_t* head_rgba) {
    if ((base_rgba[3] & head_rgba[3]) == 255) {
        // Both opaque: Y, I and Q are integer-linear in the channels, so their differences
        // are the same combinations of the channel differences.
        const int64_t dr = int64_t{base_rgba[0]} - head_rgba[0];
        const int64_t dg = int64_t{base_rgba[1]} - head_rgba[1];
        const int64_t db = int64_t{base_rgba[2]} - head_rgba[2];
        return weighted_sum_fixed(dr * to_fixed(kYr) + dg * to_fixed(kYg) + db * to_fixed(kYb),
                                  dr * to_fixed(kIr) + dg * to_fixed(kIg) + db * to_fixed(kIb),
                                  dr * to_fixed(kQr) + dg * to_fixed(kQg) + db * to_fixed(kQb));
    }
    const YiqFixed a = to_yiq_fixed(base_rgba);
    const YiqFixed b = to_yiq_fixed(head_rgba);
    return weighted_sum_fixed(a.y - b.y, a.i - b.i, a.q - b.q);
}

/// Luma of a pixel blended onto white, in doubles (the anti-aliasing test's brightness).
inline double blended_luma(const uint8_t* rgba) {
    double r = rgba[0];
    double g = rgba[1];
    double b = rgba[2];
    const double alpha = rgba[3];
    if (alpha == 0.0) {
        r = g = b = 255.0;
    } else if (alpha < 255.0) {
        const double normalized = alpha / 255.0;
        r = 255.0 + (r - 255.0) * normalized;
        g = 255.0 + (g - 255.0) * normalized;
        b = 255.0 + (b - 255.0) * normalized;
    }
    return r * kYr + g * kYg + b * kYb;
}

/// Brightness difference a - b, as odiff's calculatePixelBrightnessDelta.
inline double brightness_delta(const uint8_t* a_rgba, const uint8_t* b_rgba) {
    return blended_luma(a_rgba) - blended_luma(b_rgba);
}

}  // namespace loupe::imagediff::yiq
