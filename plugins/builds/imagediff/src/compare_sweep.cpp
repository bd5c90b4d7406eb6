#include "compare_sweep.hpp"

#include <algorithm>
#include <cstring>

#include "antialiasing.hpp"
#include "pixel_scan.hpp"
#include "yiq.hpp"

namespace loupe::imagediff {
namespace {

class RowSweep {
public:
    RowSweep(const SweepParams& params, PassCounts& counts) : params_(params), counts_(counts) {}

    void run(uint32_t y) {
        const PaddedView& base = params_.base;
        const PaddedView& head = params_.head;
        const bool base_row = y < base.height();
        const bool head_row = y < head.height();
        const uint32_t overlap = base_row && head_row ? std::min(base.width(), head.width()) : 0;
        if (overlap > 0) {
            sweep_overlap(y, overlap);
        }
        // Beyond the overlap at most one image has pixels; the other side is padding.
        if (base_row && base.width() > overlap) {
            sweep_against_padding(y, overlap, base.width(), base.row(y), true);
        } else if (head_row && head.width() > overlap) {
            sweep_against_padding(y, overlap, head.width(), head.row(y), false);
        }
    }

private:
    void sweep_overlap(uint32_t y, uint32_t overlap) {
        const uint8_t* base_row = params_.base.row(y);
        const uint8_t* head_row = params_.head.row(y);
        if (std::memcmp(base_row, head_row, size_t{overlap} * 4) == 0) {
            return;
        }
        size_t x = find_first_difference(base_row, head_row, overlap);
        while (x < overlap) {
            visit(static_cast<uint32_t>(x), y, base_row + x * 4, head_row + x * 4);
            ++x;
            x += find_first_difference(base_row + x * 4, head_row + x * 4, overlap - x);
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

    bool masked(uint32_t x, uint32_t y) const {
        return std::any_of(params_.ignored.begin(), params_.ignored.end(),
                           [&](const CanvasRect& rect) { return rect.contains(x, y); });
    }

    void visit(uint32_t x, uint32_t y, const uint8_t* base_pixel, const uint8_t* head_pixel) {
        if (!params_.ignored.empty() && masked(x, y)) {
            return;
        }
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
