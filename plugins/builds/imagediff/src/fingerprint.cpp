// The mask fingerprint, its clean rules (imagediff.hpp mask_fingerprint). Argos's library
// (mask-fingerprint 0.1.3) differs at the edges (its dilation near the top and bottom rows, its
// cell assignment and areas, f32 densities); fingerprints never travel between Argos and Loupe, so
// Loupe keeps to the clean rules, exactly.

#include "fingerprint.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdio>
#include <cstring>
#include <loupe/imagediff/imagediff.hpp>
#include <optional>
#include <stdexcept>
#include <vector>

namespace loupe::imagediff {
namespace {

constexpr uint32_t kGrid = 16;

// A mask row as 64-bit words, pixel x at bit 63 - x % 64 of word x / 64: the mask's own
// most-significant-bit-first order, so loading a row is one byte swap per word.
using RowWords = std::vector<uint64_t>;

uint64_t tail_mask(uint32_t width) {
    return width % 64 == 0 ? ~uint64_t{0} : ~uint64_t{0} << (64 - width % 64);
}

void load_row(const MaskBits& mask, uint32_t y, RowWords& words) {
    words.assign((size_t{mask.width} + 63) / 64, 0);
    std::memcpy(words.data(), mask.rows + y * mask.stride, (size_t{mask.width} + 7) / 8);
    if constexpr (std::endian::native == std::endian::little) {
        for (uint64_t& word : words) {
            word = __builtin_bswap64(word);
        }
    }
    words.back() &= tail_mask(mask.width);
}

/// The horizontal half of the 3x3 dilation: each pixel also turns on its two neighbours.
void dilate_row(const RowWords& in, RowWords& out, uint32_t width) {
    const size_t n = in.size();
    out.resize(n);
    for (size_t i = 0; i < n; ++i) {
        uint64_t word = in[i] | in[i] >> 1 | in[i] << 1;
        if (i > 0) {
            word |= in[i - 1] << 63;
        }
        if (i + 1 < n) {
            word |= in[i + 1] >> 63;
        }
        out[i] = word;
    }
    out.back() &= tail_mask(width);
}

/// On pixels in columns [begin, end).
uint64_t count_on(const RowWords& row, uint32_t begin, uint32_t end) {
    if (begin >= end) {
        return 0;
    }
    const uint32_t first = begin / 64;
    const uint32_t last = (end - 1) / 64;
    const uint64_t head = ~uint64_t{0} >> (begin % 64);
    const uint64_t tail = ~uint64_t{0} << (63 - (end - 1) % 64);
    if (first == last) {
        return std::popcount(row[first] & head & tail);
    }
    uint64_t count = std::popcount(row[first] & head) + std::popcount(row[last] & tail);
    for (uint32_t i = first + 1; i < last; ++i) {
        count += std::popcount(row[i]);
    }
    return count;
}

struct Box {
    uint32_t x0, y0, x1, y1;  ///< columns [x0, x1), rows [y0, y1)
};

std::optional<Box> on_pixel_box(const MaskBits& mask) {
    std::optional<Box> box;
    RowWords row;
    const auto nonzero = [](uint64_t word) { return word != 0; };
    for (uint32_t y = 0; y < mask.height; ++y) {
        load_row(mask, y, row);
        const auto first = std::find_if(row.begin(), row.end(), nonzero);
        if (first == row.end()) {
            continue;
        }
        const auto last = std::find_if(row.rbegin(), row.rend(), nonzero);
        const auto x_first =
            static_cast<uint32_t>(64 * (first - row.begin()) + std::countl_zero(*first));
        const auto x_end =
            static_cast<uint32_t>(64 * (row.rend() - last) - std::countr_zero(*last));
        if (!box) {
            box = Box{x_first, y, x_end, y + 1};
        }
        box->x0 = std::min(box->x0, x_first);
        box->x1 = std::max(box->x1, x_end);
        box->y1 = y + 1;
    }
    return box;
}

/// Density on / area against 0.002, 0.02 and 0.08, in exact integer arithmetic.
uint8_t density_level(uint64_t on, uint64_t area) {
    if (on * 500 < area) {
        return 0;
    }
    if (on * 50 < area) {
        return 1;
    }
    if (on * 25 < area * 2) {
        return 2;
    }
    return 3;
}

std::string format_fingerprint(const std::array<uint8_t, kGrid * kGrid / 4>& packed) {
    uint64_t hash = 0xcbf29ce484222325;  // FNV-1a 64
    for (const uint8_t byte : packed) {
        hash ^= byte;
        hash *= 0x100000001b3;
    }
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(hash));
    return std::string("v1:g16:d1:t0.002,0.02,0.08:") + hex;
}

}  // namespace

std::string mask_fingerprint(const MaskBits& mask) {
    if (mask.width == 0 || mask.height == 0) {
        return "empty";
    }
    const std::optional<Box> on = on_pixel_box(mask);
    if (!on) {
        return "empty";
    }
    // The dilation grows the on pixels' box by one pixel each way, within the mask.
    const Box box{on->x0 > 0 ? on->x0 - 1 : 0, on->y0 > 0 ? on->y0 - 1 : 0,
                  std::min(mask.width, on->x1 + 1), std::min(mask.height, on->y1 + 1)};
    const uint64_t box_width = box.x1 - box.x0;
    const uint64_t box_height = box.y1 - box.y0;
    const uint64_t side = std::max(box_width, box_height);
    const uint64_t offset_x = (side - box_width) / 2;
    const uint64_t offset_y = (side - box_height) / 2;

    // Cell g spans [edge[g], edge[g + 1]) of the square, both ways; as mask columns, clipped
    // to the box (the rest of the square is padding).
    std::array<uint64_t, kGrid + 1> edge;
    for (uint32_t g = 0; g <= kGrid; ++g) {
        edge[g] = g * side / kGrid;
    }
    std::array<uint32_t, kGrid> column_begin;
    std::array<uint32_t, kGrid> column_end;
    const auto to_column = [&](uint64_t square_x) {
        const int64_t x = static_cast<int64_t>(square_x + box.x0) - static_cast<int64_t>(offset_x);
        return static_cast<uint32_t>(std::clamp<int64_t>(x, box.x0, box.x1));
    };
    for (uint32_t gx = 0; gx < kGrid; ++gx) {
        column_begin[gx] = to_column(edge[gx]);
        column_end[gx] = to_column(edge[gx + 1]);
    }

    // Rows y - 1, y and y + 1, each dilated horizontally; their union is row y dilated.
    RowWords raw;
    RowWords above;
    RowWords here;
    RowWords below;
    RowWords dilated((size_t{mask.width} + 63) / 64);
    const auto load_dilated = [&](int64_t y, RowWords& out) {
        if (y < 0 || y >= mask.height) {
            out.assign(dilated.size(), 0);
            return;
        }
        load_row(mask, static_cast<uint32_t>(y), raw);
        dilate_row(raw, out, mask.width);
    };
    load_dilated(int64_t{box.y0} - 1, above);
    load_dilated(box.y0, here);
    std::array<uint64_t, kGrid * kGrid> counts{};
    uint32_t gy = 0;
    for (uint32_t y = box.y0; y < box.y1; ++y) {
        load_dilated(int64_t{y} + 1, below);
        for (size_t i = 0; i < dilated.size(); ++i) {
            dilated[i] = above[i] | here[i] | below[i];
        }
        const uint64_t square_y = y - box.y0 + offset_y;
        while (square_y >= edge[gy + 1]) {
            ++gy;
        }
        for (uint32_t gx = 0; gx < kGrid; ++gx) {
            counts[gy * kGrid + gx] += count_on(dilated, column_begin[gx], column_end[gx]);
        }
        std::swap(above, here);
        std::swap(here, below);
    }

    // Cell i = gy * 16 + gx (row-major, as Argos's library orders them), two bits each.
    std::array<uint8_t, kGrid * kGrid / 4> packed{};
    for (uint32_t cy = 0; cy < kGrid; ++cy) {
        for (uint32_t cx = 0; cx < kGrid; ++cx) {
            const uint64_t area = (edge[cx + 1] - edge[cx]) * (edge[cy + 1] - edge[cy]);
            const uint32_t i = cy * kGrid + cx;
            packed[i / 4] |= density_level(counts[i], std::max<uint64_t>(1, area)) << (2 * (i % 4));
        }
    }
    return format_fingerprint(packed);
}

std::string mask_fingerprint(const Image& rgba) {
    if (rgba.rgba.size() < rgba.pixel_count() * 4) {
        throw std::invalid_argument(
            "mask_fingerprint: the image's buffer is smaller than its size");
    }
    const size_t stride = (size_t{rgba.width} + 7) / 8;
    std::vector<uint8_t> bits(stride * rgba.height, 0);
    const uint8_t* pixel = rgba.rgba.data();
    for (uint32_t y = 0; y < rgba.height; ++y) {
        uint8_t* row = bits.data() + y * stride;
        for (uint32_t x = 0; x < rgba.width; ++x, pixel += 4) {
            if (pixel[0] >= 200 && pixel[1] <= 90 && pixel[2] <= 90 && pixel[3] >= 16) {
                row[x / 8] |= static_cast<uint8_t>(0x80 >> (x % 8));
            }
        }
    }
    return mask_fingerprint(MaskBits{bits.data(), stride, rgba.width, rgba.height});
}

}  // namespace loupe::imagediff
