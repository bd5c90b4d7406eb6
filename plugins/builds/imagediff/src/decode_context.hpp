#pragma once
// Reusable per-thread decoder state: library handles and scratch buffers that would otherwise
// be allocated (and page-faulted in) for every image. One context serves one thread at a time.

#include <loupe/imagediff/imagediff.hpp>
#include <vector>

#include "uninit_buffer.hpp"

struct libdeflate_decompressor;

namespace loupe::imagediff {

class DecodeContext {
public:
    DecodeContext() = default;
    ~DecodeContext();
    DecodeContext(const DecodeContext&) = delete;
    DecodeContext& operator=(const DecodeContext&) = delete;

    libdeflate_decompressor* inflater();
    void* jpeg_decompressor();  ///< a tjhandle

    UninitBuffer idat;              ///< concatenated IDAT payloads, when split over several chunks
    std::vector<uint8_t> zero_row;  ///< the "previous row" of the first scanline

private:
    libdeflate_decompressor* inflater_ = nullptr;
    void* jpeg_ = nullptr;
};

/// decode() with caller-owned scratch (what Differ uses to reuse buffers across calls).
void decode(std::span<const uint8_t> bytes, Image& out, const DecodeOptions& options,
            DecodeContext& context);

struct Dimensions {
    uint32_t width = 0;
    uint32_t height = 0;
};

/// Reads only the header: format check, dimensions and the pixel limit; no pixel data.
Dimensions read_dimensions(std::span<const uint8_t> bytes, const DecodeOptions& options,
                           DecodeContext& context);

/// Throws DecodeError unless 0 < width, height and width * height <= options.max_pixels.
void check_pixel_limit(uint64_t width, uint64_t height, const DecodeOptions& options);

}  // namespace loupe::imagediff
