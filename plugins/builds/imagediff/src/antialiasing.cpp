#include "antialiasing.hpp"

#include <algorithm>
#include <array>
#include <cstddef>

#if defined(__SSE2__)
#include <emmintrin.h>
#define LOUPE_AA_SSE2 1
#endif

#include "yiq.hpp"

namespace loupe::imagediff {
namespace {

// Neighbour offsets in odiff's visiting order (row by row): the order decides which of two
// equally dark (or bright) neighbours is "the" extreme.
constexpr int kDx[8] = {-1, 0, 1, -1, 1, -1, 0, 1};
constexpr int kDy[8] = {-1, -1, -1, 0, 0, 1, 1, 1};

// The products channel * coefficient for opaque pixels, so a luma is three loads and the same
// two additions odiff performs: bit-identical doubles.
struct LumaTables {
    std::array<double, 256> r{}, g{}, b{};
    constexpr LumaTables() {
        for (int c = 0; c < 256; ++c) {
            r[c] = c * yiq::kYr;
            g[c] = c * yiq::kYg;
            b[c] = c * yiq::kYb;
        }
    }
};
constexpr LumaTables kLuma;

inline double luma(const uint8_t* pixel) {
    if (pixel[3] == 255) {
        return kLuma.r[pixel[0]] + kLuma.g[pixel[1]] + kLuma.b[pixel[2]];
    }
    return yiq::blended_luma(pixel);
}

// The darkest and brightest neighbour from the 8 luma differences (centre minus neighbour):
// the first index holding the smallest value below 0 and the first holding the largest above
// 0, as odiff's sequential strict comparisons find them. False when either side is missing
// (not on a slope).
inline bool find_extremes(const double (&delta)[8], int& min_k, int& max_k) {
    double min_delta = 0.0;
    double max_delta = 0.0;
    min_k = max_k = -1;
    for (int k = 0; k < 8; ++k) {
        min_k = delta[k] < min_delta ? k : min_k;
        min_delta = delta[k] < min_delta ? delta[k] : min_delta;
        max_k = delta[k] > max_delta ? k : max_k;
        max_delta = delta[k] > max_delta ? delta[k] : max_delta;
    }
    return min_k >= 0 && max_k >= 0;
}

/// Neighbour k of the centre, or null where the canvas border clamps it away.
struct Neighbours {
    const uint8_t* centre;
    std::array<const uint8_t*, 8> pixel;
};

// Steps 1-3: fewer than 3 bit-identical neighbours (border credit included), and both a
// darker and a brighter one. Sets the indices of the extremes (first one wins a tie, as in
// odiff's visiting order).
bool on_slope(const Neighbours& n, unsigned equal, int& min_k, int& max_k) {
    const uint32_t centre_raw = PaddedView::raw(n.centre);
    for (const uint8_t* pixel : n.pixel) {
        equal += pixel != nullptr && PaddedView::raw(pixel) == centre_raw ? 1 : 0;
    }
    if (equal >= 3) {
        return false;  // flat area, not an edge
    }
    // Identical or clamped-away neighbours count as a delta of 0: never an extreme.
    const double centre_luma = luma(n.centre);
    double delta[8];
    for (int k = 0; k < 8; ++k) {
        delta[k] = n.pixel[k] == nullptr ? 0.0 : centre_luma - luma(n.pixel[k]);
    }
    return find_extremes(delta, min_k, max_k);
}

// --- The common case: the pixel is well inside the image --------------------------------

// The 5x5 square around the pixel, plus one more column on the right (the vector loads read
// four pixels from x - 1 of each 3x3 window), lies inside the image.
bool is_interior(const PaddedView& view, uint32_t x, uint32_t y) {
    return x >= 2 && y >= 2 && x + 3 < view.width() && y + 2 < view.height();
}

// Entirely in the padding: all 25 pixels are transparent black.
bool is_padding(const PaddedView& view, uint32_t x, uint32_t y) {
    return x >= view.width() + 2 || y >= view.height() + 2;
}

struct Direct {
    const uint8_t* centre;
    ptrdiff_t stride;

    const uint8_t* at(int dx, int dy) const { return centre + dy * stride + dx * 4; }
};

#ifdef LOUPE_AA_SSE2
// How many of the 8 neighbours of `pixel` are bit-identical to it (three 4-pixel loads).
inline unsigned equal_neighbours(const uint8_t* pixel, ptrdiff_t stride) {
    const __m128i centre = _mm_set1_epi32(static_cast<int>(PaddedView::raw(pixel)));
    const auto row_mask = [&](const uint8_t* left) {
        const __m128i row = _mm_loadu_si128(reinterpret_cast<const __m128i*>(left));
        return static_cast<unsigned>(
            _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(row, centre))));
    };
    // Bits set in a 3-bit mask (no POPCNT instruction in baseline x86-64).
    constexpr unsigned kBits[8] = {0, 1, 1, 2, 1, 2, 2, 3};
    return kBits[row_mask(pixel - stride - 4) & 7u] + kBits[row_mask(pixel - 4) & 5u] +
           kBits[row_mask(pixel + stride - 4) & 7u];
}
#else
inline unsigned equal_neighbours(const uint8_t* pixel, ptrdiff_t stride) {
    const uint32_t centre = PaddedView::raw(pixel);
    unsigned equal = 0;
    for (int k = 0; k < 8; ++k) {
        equal += PaddedView::raw(pixel + kDy[k] * stride + kDx[k] * 4) == centre ? 1 : 0;
    }
    return equal;
}
#endif

bool has_many_siblings(const Direct& image, int dx, int dy) {
    return equal_neighbours(image.at(dx, dy), image.stride) >= 3;
}

// Steps 1-3 for an interior pixel; see on_slope.
bool on_slope(const Direct& image, int& min_k, int& max_k) {
    if (equal_neighbours(image.centre, image.stride) >= 3) {
        return false;  // flat area, not an edge
    }
    const double centre_luma = luma(image.centre);
    double delta[8];
    for (int k = 0; k < 8; ++k) {
        delta[k] = centre_luma - luma(image.at(kDx[k], kDy[k]));
    }
    return find_extremes(delta, min_k, max_k);
}

// --- Everything else: near the canvas border, or straddling an image's edge ----------------

// The 3x3 window around (x, y), clamped to the canvas. A pixel on the border starts with one
// "equal neighbour" credit, as in pixelmatch and odiff.
struct Window {
    uint32_t x0, y0, x1, y1;
    unsigned border_credit;

    Window(uint32_t x, uint32_t y, const PaddedView& view)
        : x0(x > 0 ? x - 1 : 0),
          y0(y > 0 ? y - 1 : 0),
          x1(std::min(x + 1, view.canvas_width() - 1)),
          y1(std::min(y + 1, view.canvas_height() - 1)),
          border_credit(x == x0 || x == x1 || y == y0 || y == y1 ? 1 : 0) {}
};

Neighbours clamped_neighbours(uint32_t x, uint32_t y, const PaddedView& view, const Window& w) {
    Neighbours n{view.at(x, y), {}};
    for (int k = 0; k < 8; ++k) {
        const int64_t nx = int64_t{x} + kDx[k];
        const int64_t ny = int64_t{y} + kDy[k];
        const bool inside = nx >= w.x0 && nx <= w.x1 && ny >= w.y0 && ny <= w.y1;
        n.pixel[k] = inside ? view.at(uint32_t(nx), uint32_t(ny)) : nullptr;
    }
    return n;
}

bool has_many_siblings(uint32_t x, uint32_t y, const PaddedView& view) {
    const Window w(x, y, view);
    const Neighbours n = clamped_neighbours(x, y, view, w);
    const uint32_t centre_raw = PaddedView::raw(n.centre);
    unsigned equal = w.border_credit;
    for (const uint8_t* pixel : n.pixel) {
        equal += pixel != nullptr && PaddedView::raw(pixel) == centre_raw ? 1 : 0;
    }
    return equal >= 3;
}

bool is_antialiased_in_general(uint32_t x, uint32_t y, const PaddedView& image,
                               const PaddedView& other) {
    const Window w(x, y, image);
    int min_k = 0;
    int max_k = 0;
    if (!on_slope(clamped_neighbours(x, y, image, w), w.border_credit, min_k, max_k)) {
        return false;
    }
    const uint32_t min_x = x + kDx[min_k], min_y = y + kDy[min_k];
    const uint32_t max_x = x + kDx[max_k], max_y = y + kDy[max_k];
    return (has_many_siblings(min_x, min_y, image) || has_many_siblings(max_x, max_y, image)) &&
           (has_many_siblings(min_x, min_y, other) || has_many_siblings(max_x, max_y, other));
}

}  // namespace

bool is_antialiased_in(uint32_t x, uint32_t y, const PaddedView& image, const PaddedView& other) {
    if (!is_interior(image, x, y)) {
        // All padding around the pixel: every neighbour is identical, so no slope.
        if (is_padding(image, x, y) && is_interior(other, x, y)) {
            return false;
        }
        return is_antialiased_in_general(x, y, image, other);
    }
    // From here the 5x5 square is inside this image, hence inside the canvas: no clamping.
    const Direct self{image.row(y) + size_t{x} * 4, ptrdiff_t{image.width()} * 4};
    int min_k = 0;
    int max_k = 0;
    if (!on_slope(self, min_k, max_k)) {
        return false;
    }
    if (!has_many_siblings(self, kDx[min_k], kDy[min_k]) &&
        !has_many_siblings(self, kDx[max_k], kDy[max_k])) {
        return false;
    }
    if (is_interior(other, x, y)) {
        const Direct peer{other.row(y) + size_t{x} * 4, ptrdiff_t{other.width()} * 4};
        return has_many_siblings(peer, kDx[min_k], kDy[min_k]) ||
               has_many_siblings(peer, kDx[max_k], kDy[max_k]);
    }
    if (is_padding(other, x, y)) {
        return true;  // the other side is flat padding around both extremes
    }
    return has_many_siblings(x + kDx[min_k], y + kDy[min_k], other) ||
           has_many_siblings(x + kDx[max_k], y + kDy[max_k], other);
}

}  // namespace loupe::imagediff
