// Format detection and decoder dispatch.

#include <libdeflate.h>
#include <turbojpeg.h>

#include <new>
#include <string>

#include "decode_context.hpp"
#include "jpeg_decode.hpp"
#include "png_decode.hpp"
#include "png_fast_decode.hpp"
#include "png_header.hpp"

namespace loupe::imagediff {

DecodeContext::~DecodeContext() {
    if (inflater_ != nullptr) {
        libdeflate_free_decompressor(inflater_);
    }
    if (jpeg_ != nullptr) {
        tjDestroy(jpeg_);
    }
}

libdeflate_decompressor* DecodeContext::inflater() {
    if (inflater_ == nullptr) {
        inflater_ = libdeflate_alloc_decompressor();
        if (inflater_ == nullptr) {
            throw std::bad_alloc();
        }
    }
    return inflater_;
}

void* DecodeContext::jpeg_decompressor() {
    if (jpeg_ == nullptr) {
        jpeg_ = tjInitDecompress();
        if (jpeg_ == nullptr) {
            throw std::bad_alloc();
        }
    }
    return jpeg_;
}

Format sniff_format(std::span<const uint8_t> bytes) {
    if (png::has_signature(bytes)) {
        return Format::png;
    }
    if (bytes.size() >= 3 && bytes[0] == 0xff && bytes[1] == 0xd8 && bytes[2] == 0xff) {
        return Format::jpeg;
    }
    return Format::unknown;
}

void check_pixel_limit(uint64_t width, uint64_t height, const DecodeOptions& options) {
    if (width == 0 || height == 0) {
        throw DecodeError("The image has zero width or height.");
    }
    if (width * height > options.max_pixels) {
        throw DecodeError("The image is " + std::to_string(width) + " x " + std::to_string(height) +
                          " pixels, more than the limit of " + std::to_string(options.max_pixels) +
                          " pixels.");
    }
}

namespace {

[[noreturn]] void fail_unknown_format(std::span<const uint8_t> bytes) {
    throw DecodeError(bytes.empty() ? "The image file is empty."
                                    : "The file is not a PNG or JPEG image.");
}

}  // namespace

void decode(std::span<const uint8_t> bytes, Image& out, const DecodeOptions& options,
            DecodeContext& context) {
    switch (sniff_format(bytes)) {
        case Format::png: {
            // The pixel limit is checked before the fast path allocates anything; libspng
            // re-reads the same header for files the fast path hands over.
            if (const auto ihdr = png::read_ihdr(bytes)) {
                check_pixel_limit(ihdr->width, ihdr->height, options);
                if (!png::is_plausible_size(*ihdr, png::idat_bytes(bytes))) {
                    throw DecodeError(
                        "The PNG image is malformed or truncated: its pixel data is too short for "
                        "its size.");
                }
                if (decode_png_fast(bytes, out, context)) {
                    return;
                }
            }
            decode_png_spng(bytes, out, options);
            return;
        }
        case Format::jpeg:
            decode_jpeg(bytes, out, options, context);
            return;
        case Format::unknown:
            break;
    }
    fail_unknown_format(bytes);
}

void decode(std::span<const uint8_t> bytes, Image& out, const DecodeOptions& options) {
    DecodeContext context;
    decode(bytes, out, options, context);
}

Dimensions read_dimensions(std::span<const uint8_t> bytes, const DecodeOptions& options,
                           DecodeContext& context) {
    Dimensions size;
    switch (sniff_format(bytes)) {
        case Format::png: {
            const auto ihdr = png::read_ihdr(bytes);
            if (!ihdr) {
                throw DecodeError("The PNG image is malformed or truncated (bad IHDR chunk).");
            }
            size = {ihdr->width, ihdr->height};
            break;
        }
        case Format::jpeg:
            size = read_jpeg_dimensions(bytes, context);
            break;
        case Format::unknown:
            fail_unknown_format(bytes);
    }
    check_pixel_limit(size.width, size.height, options);
    return size;
}

}  // namespace loupe::imagediff
