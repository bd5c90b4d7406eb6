#include "canvas_scale.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "pixel_memory.hpp"

namespace loupe::imagediff {
namespace {

/// How many of `to_size` output pixels the image's first `size` source pixels reach into.
uint32_t covered(uint32_t size, uint32_t from_size, uint32_t to_size) {
    return static_cast<uint32_t>((uint64_t{size} * to_size + from_size - 1) / from_size);
}

/// Adds the pixels [begin, end), premultiplied by alpha, to sum[0..2], and their alpha to sum[3].
void accumulate(const uint8_t* begin, const uint8_t* end, uint64_t* sum) {
    for (const uint8_t* pixel = begin; pixel < end; pixel += 4) {
        const uint32_t alpha = pixel[3];
        sum[0] += pixel[0] * alpha;
        sum[1] += pixel[1] * alpha;
        sum[2] += pixel[2] * alpha;
        sum[3] += alpha;
    }
}

/// The average of a block of `count` pixels (padding included) from its sums.
void store_average(const uint64_t* sum, uint64_t count, uint8_t* pixel) {
    const uint64_t alpha = sum[3];
    for (int c = 0; c < 3; ++c) {
        pixel[c] = alpha == 0 ? 0 : static_cast<uint8_t>((sum[c] + alpha / 2) / alpha);
    }
    pixel[3] = static_cast<uint8_t>((alpha + count / 2) / count);
}

/// store_average() of a one-pixel block: the pixel, transparent black if alpha is 0.
void store_single(const uint8_t* source, uint8_t* pixel) {
    uint32_t value;
    std::memcpy(&value, source, 4);
    if (source[3] == 0) {
        value = 0;
    }
    std::memcpy(pixel, &value, 4);
}

}  // namespace

CanvasSize fit_canvas(CanvasSize canvas, uint64_t max_pixels) {
    if (max_pixels == 0) {
        throw std::invalid_argument("compare: max_canvas_pixels must be at least 1");
    }
    const uint64_t pixels = uint64_t{canvas.width} * canvas.height;
    if (pixels <= max_pixels) {
        return canvas;
    }
    const double scale = std::sqrt(static_cast<double>(max_pixels) / static_cast<double>(pixels));
    uint64_t width = std::max(1.0, std::floor(canvas.width * scale));
    uint64_t height = std::max(1.0, std::floor(canvas.height * scale));
    // A side held at one pixel, or rounding, can leave the product over the limit.
    if (width * height > max_pixels) {
        if (width >= height) {
            width = std::max<uint64_t>(1, max_pixels / height);
        } else {
            height = std::max<uint64_t>(1, max_pixels / width);
        }
    }
    return {static_cast<uint32_t>(width), static_cast<uint32_t>(height)};
}

void downscale(const Image& image, Image& out, CanvasSize from, CanvasSize to) {
    if (to.width == 0 || to.height == 0 || to.width > from.width || to.height > from.height ||
        image.width > from.width || image.height > from.height) {
        throw std::invalid_argument("downscale: sizes out of range");
    }
    const uint32_t width = covered(image.width, from.width, to.width);
    const uint32_t height = covered(image.height, from.height, to.height);
    // Output column X averages source columns [column[X], column[X + 1]), clipped to the image;
    // the part of the block past the image is padding, transparent.
    std::vector<uint32_t> column(size_t{width} + 1);
    for (uint32_t x = 0; x <= width; ++x) {
        column[x] = static_cast<uint32_t>(uint64_t{x} * from.width / to.width);
    }

    const bool in_place = &image == &out;
    if (!in_place) {
        prepare_pixels(out.rgba, size_t{width} * height * 4);
    }
    const uint8_t* source = image.rgba.data();
    // In place, output row y lands where source rows up to y were, and only once its own source
    // rows (y or later) have been read: nothing still to be read is overwritten.
    uint8_t* target = out.rgba.data();
    std::vector<uint64_t> sums(size_t{width} * 4);
    for (uint32_t y = 0; y < height; ++y) {
        const auto row_begin = static_cast<uint32_t>(uint64_t{y} * from.height / to.height);
        const auto row_end = static_cast<uint32_t>(uint64_t{y + 1} * from.height / to.height);
        uint8_t* pixel = target + size_t{y} * width * 4;
        if (row_end - row_begin == 1) {
            // Most rows when the canvas is just over the limit, and most blocks then are one
            // pixel: a copy. In place, output pixel x lands at or before source pixel
            // column[x], so no pixel is overwritten before it is read.
            const uint8_t* row = source + size_t{row_begin} * image.width * 4;
            for (uint32_t x = 0; x < width; ++x, pixel += 4) {
                const uint8_t* first = row + size_t{column[x]} * 4;
                if (column[x + 1] - column[x] == 1) {
                    store_single(first, pixel);
                    continue;
                }
                uint64_t sum[4] = {};
                accumulate(first, row + size_t{std::min(column[x + 1], image.width)} * 4, sum);
                store_average(sum, column[x + 1] - column[x], pixel);
            }
            continue;
        }
        std::fill(sums.begin(), sums.end(), 0);
        for (uint32_t source_y = row_begin; source_y < std::min(row_end, image.height);
             ++source_y) {
            const uint8_t* row = source + size_t{source_y} * image.width * 4;
            for (uint32_t x = 0; x < width; ++x) {
                accumulate(row + size_t{column[x]} * 4,
                           row + size_t{std::min(column[x + 1], image.width)} * 4,
                           &sums[size_t{x} * 4]);
            }
        }
        for (uint32_t x = 0; x < width; ++x, pixel += 4) {
            store_average(&sums[size_t{x} * 4],
                          uint64_t{row_end - row_begin} * (column[x + 1] - column[x]), pixel);
        }
    }
    out.width = width;
    out.height = height;
    out.rgba.resize(size_t{width} * height * 4);
}

}  // namespace loupe::imagediff
