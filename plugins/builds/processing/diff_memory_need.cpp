#include "processing/diff_memory_need.hpp"

#include <algorithm>

#include "loupe/imagediff/imagediff.hpp"

namespace loupe::builds {
namespace {

// Allocator rounding, library handles, the decoding thread's stack.
constexpr uint64_t overhead_bytes = uint64_t{16} << 20;
// libjpeg keeps a progressive image's DCT coefficients whole: 2 bytes per sample, 3 samples.
constexpr uint64_t jpeg_coefficient_bytes_per_pixel = 6;
// The PNG IHDR fields after the signature and the chunk's length and type.
constexpr std::size_t png_bit_depth_offset = 24;
constexpr std::size_t png_color_type_offset = 25;
constexpr std::size_t png_interlace_offset = 28;
// Output rows the in-place unfilter keeps ahead of the scanlines it reads.
constexpr uint64_t in_place_rows_ahead = 4;

uint64_t png_samples_per_pixel(uint8_t color_type) {
    switch (color_type) {
        case 6:  // RGBA
            return 4;
        case 2:  // RGB
            return 3;
        case 4:  // grey + alpha
            return 2;
        default:  // grey, palette
            return 1;
    }
}

struct Side {
    uint64_t width = 0;
    uint64_t height = 0;
    uint64_t bytes = 0;
};

Side side_need(const StoredImage& image) {
    // The file read whole (in growing chunks: up to twice its size), and a PNG's IDAT data
    // joined into one buffer when it is split over several chunks.
    Side side{0, 0, 3 * image.file_bytes};
    const auto size = imagediff::read_image_size(image.prefix);
    if (!size) {
        return side;
    }
    const uint64_t pixels = uint64_t{size->width} * size->height;
    if (pixels > imagediff::DecodeOptions{}.max_pixels) {
        return side;
    }
    side.width = size->width;
    side.height = size->height;
    side.bytes += 4 * pixels;  // RGBA8
    if (imagediff::sniff_format(image.prefix) == imagediff::Format::png) {
        // read_image_size checked the IHDR, so its fields are within the prefix.
        const uint64_t bit_depth = std::max<uint8_t>(image.prefix[png_bit_depth_offset], 1);
        const uint8_t color_type = image.prefix[png_color_type_offset];
        const uint64_t samples = png_samples_per_pixel(color_type);
        const bool interlaced = image.prefix[png_interlace_offset] != 0;
        if (bit_depth == 8 && (samples == 3 || samples == 4) && color_type != 4 && !interlaced) {
            // The fast decoder inflates the scanlines into the RGBA buffer itself, a few rows
            // in (and, for RGB, further in by what each row grows from 3 to 4 bytes a pixel).
            side.bytes += in_place_rows_ahead * 4 * side.width + side.height;
            if (samples == 3) {
                side.bytes += side.height * side.width;
            }
        } else {
            const uint64_t row_bytes = (side.width * samples * bit_depth + 7) / 8;
            side.bytes += side.height * (1 + row_bytes);  // the inflated, filtered scanlines
        }
    } else {
        side.bytes += jpeg_coefficient_bytes_per_pixel * pixels;
    }
    return side;
}

}  // namespace

uint64_t DiffMemoryNeed::total() const {
    return base + head + canvas + overhead_bytes;
}

DiffMemoryNeed diff_memory_need(const StoredImage* base, const StoredImage& head) {
    DiffMemoryNeed need;
    const Side head_side = side_need(head);
    need.head = head_side.bytes;
    if (!base) {
        return need;
    }
    const Side base_side = side_need(*base);
    need.base = base_side.bytes;
    const uint64_t width = std::max(base_side.width, head_side.width);
    const uint64_t height = std::max(base_side.height, head_side.height);
    // A 1-bit mask per pass (each row led by a filter byte), the chosen one encoded, and the
    // fingerprint's copy of it.
    const uint64_t mask_bytes = height * ((width + 7) / 8 + 1);
    need.canvas = 4 * mask_bytes;
    return need;
}

}  // namespace loupe::builds
