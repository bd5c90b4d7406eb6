#include "compare_sweep.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#include "antialiasing.hpp"
#include "pixel_scan.hpp"
#include "yiq.hpp"

namespace loupe::imagediff {
namespace {

class RowSweep {
public:
    RowSweep(const SweepParams& params, PassCounts& counts) : params_(params), counts_(counts) {}

    void run(uint32_t y) {
        if (params_.ignored.empty()) {
            sweep_span(y, 0, UINT32_MAX);
            return;
        }
        // Masked pixels are never visited: the row is swept between its masked spans.
        uint32_t x = 0;
        for (const auto& [begin, end] : masked_spans(y)) {
            if (begin > x) {
                sweep_span(y, x, begin);
            }
            x = std::max(x, end);
        }
        sweep_span(y, x, UINT32_MAX);
    }

private:
    /// The masked [x0, x1) spans of row `y`, sorted by start (they may overlap).
    const std::vector<std::pair<uint32_t, uint32_t>>& masked_spans(uint32_t y) {
        spans_.clear();
        for (const CanvasRect& rect : params_.ignored) {
            if (y >= rect.y0 && y < rect.y1) {
                spans_.emplace_back(rect.x0, rect.x1);
            }
        }
        std::sort(spans_.begin(), spans_.end());
        return spans_;
    }

    /// Columns [from, to) of row `y` (`to` past the canvas means to its end).
    void sweep_span(uint32_t y, uint32_t from, uint32_t to) {
        const PaddedView& base = params_.base;
        const PaddedView& head = params_.head;
        const bool base_row = y < base.height();
        const bool head_row = y < head.height();
        const uint32_t overlap = base_row && head_row ? std::min(base.width(), head.width()) : 0;
        if (from < std::min(overlap, to)) {
            sweep_overlap(y, from, std::min(overlap, to));
        }
        // Beyond the overlap at most one image has pixels; the other side is padding.
        const uint32_t begin = std::max(from, overlap);
        if (base_row && base.width() > overlap) {
            const uint32_t end = std::min(base.width(), to);
            if (begin < end) {
                sweep_against_padding(y, begin, end, base.row(y), true);
            }
        } else if (head_row && head.width() > overlap) {
            const uint32_t end = std::min(head.width(), to);
            if (begin < end) {
                sweep_against_padding(y, begin, end, head.row(y), false);
            }
        }
    }

    void sweep_overlap(uint32_t y, uint32_t from, uint32_t to) {
        const size_t count = to - from;
        const uint8_t* base_from = params_.base.row(y) + size_t{from} * 4;
        const uint8_t* head_from = params_.head.row(y) + size_t{from} * 4;
        if (std::memcmp(base_from, head_from, count * 4) == 0) {
            return;
        }
        size_t x = find_first_difference(base_from, head_from, count);
        while (x < count) {
            visit(static_cast<uint32_t>(from + x), y, base_from + x * 4, head_from + x * 4);
            ++x;
            x += find_first_difference(base_from + x * 4, head_from + x * 4, count - x);
        }
    }

    void sweep_against_padding(uint32_t y, uint32_t begin, uint32_t end, const uint8_t* row,
                               bool row_is_base) {
        static constexpr uint8_t kTransparent[4] = {0, 0, 0, 0};
        size_t x = begin + find_first_nonzero(row + size_t{begin} * 4, end - begin);
        while (x < end) {
            const uint8_t* pixel = row + x * 4;
            visit(static_cast<uint32_t>(x), y, row_is_base ? pixel : kTransparent,
                  row_is_base ? kTransparent : pixel);
            ++x;
            x += find_first_nonzero(row + x * 4, end - x);
        }
    }

    void visit(uint32_t x, uint32_t y, const uint8_t* base_pixel, const uint8_t* head_pixel) {
        const int64_t delta = yiq::delta_fixed(base_pixel, head_pixel);
        if (delta <= params_.color_max_delta || is_antialiased(x, y, params_.base, params_.head)) {
            return;
        }
        ++counts_.color_pass;
        mark(params_.bitmaps.color_pass, x, y);
        if (delta > params_.base_max_delta) {
            ++counts_.base_pass;
            mark(params_.bitmaps.base_pass, x, y);
        }
    }

    void mark(uint8_t* bitmap, uint32_t x, uint32_t y) const {
        if (bitmap != nullptr) {
            bitmap[y * params_.bitmaps.row_bytes + 1 + (x >> 3)] |=
                static_cast<uint8_t>(0x80u >> (x & 7));
        }
    }

    const SweepParams& params_;
    PassCounts& counts_;
    std::vector<std::pair<uint32_t, uint32_t>> spans_;  ///< reused across rows
};

}  // namespace

PassCounts sweep_rows(const SweepParams& params, uint32_t row_begin, uint32_t row_end) {
    PassCounts counts;
    RowSweep sweep(params, counts);
    for (uint32_t y = row_begin; y < row_end; ++y) {
        sweep.run(y);
    }
    return counts;
}

}  // namespace loupe::imagediff
