// Image dimensions from the first bytes of a file, without decoding its pixels.
#include "loupe/imagediff/imagediff.hpp"
#include "png_header.hpp"

namespace loupe::imagediff {
namespace {

bool is_start_of_frame(uint8_t marker) {
    // SOF0..SOF15, except DHT (C4), JPG (C8) and DAC (CC), which share the range.
    return marker >= 0xc0 && marker <= 0xcf && marker != 0xc4 && marker != 0xc8 && marker != 0xcc;
}

std::optional<ImageSize> jpeg_size(std::span<const uint8_t> bytes) {
    std::size_t at = 2;  // after SOI
    while (at + 4 <= bytes.size()) {
        if (bytes[at] != 0xff) {
            return std::nullopt;
        }
        const uint8_t marker = bytes[at + 1];
        if (marker == 0xff) {
            ++at;  // fill byte
            continue;
        }
        if (marker == 0xd8 || marker == 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
            at += 2;  // markers without a length
            continue;
        }
        if (marker == 0xd9 || marker == 0xda) {
            return std::nullopt;  // end of image, or scan data before any frame header
        }
        const std::size_t length = (std::size_t{bytes[at + 2]} << 8) | bytes[at + 3];
        if (length < 2) {
            return std::nullopt;
        }
        if (is_start_of_frame(marker)) {
            if (at + 9 > bytes.size() || length < 7) {
                return std::nullopt;
            }
            const uint32_t height = (uint32_t{bytes[at + 5]} << 8) | bytes[at + 6];
            const uint32_t width = (uint32_t{bytes[at + 7]} << 8) | bytes[at + 8];
            if (width == 0 || height == 0) {
                return std::nullopt;
            }
            return ImageSize{width, height};
        }
        at += 2 + length;
    }
    return std::nullopt;
}

/// The PNG specification bounds each dimension to 1..2^31 - 1; a header past that is broken.
bool is_png_dimension(uint32_t value) {
    return value >= 1 && value <= 0x7fffffffu;
}

}  // namespace

std::optional<ImageSize> read_image_size(std::span<const uint8_t> prefix) {
    switch (sniff_format(prefix)) {
        case Format::png:
            if (const auto ihdr = png::read_ihdr(prefix);
                ihdr && is_png_dimension(ihdr->width) && is_png_dimension(ihdr->height)) {
                return ImageSize{ihdr->width, ihdr->height};
            }
            return std::nullopt;
        case Format::jpeg:
            return jpeg_size(prefix);
        case Format::unknown:
            break;
    }
    return std::nullopt;
}

}  // namespace loupe::imagediff
