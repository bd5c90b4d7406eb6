#include "png_fast_decode.hpp"

#include <libdeflate.h>

#include <algorithm>
#include <cstring>

#include "pixel_memory.hpp"
#include "png_header.hpp"
#include "png_unfilter.hpp"

namespace loupe::imagediff {
namespace {

constexpr size_t kFirstChunkAfterIhdr = png::kSignature.size() + png::kChunkOverhead + 13;

bool is_letter(uint8_t c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

// Letters only, and the reserved bit (case of the third letter) clear, as the spec requires.
bool is_well_formed_type(const uint8_t* type) {
    return is_letter(type[0]) && is_letter(type[1]) && is_letter(type[2]) && is_letter(type[3]) &&
           (type[2] & 0x20) == 0;
}

bool is_critical(const uint8_t* type) {
    return (type[0] & 0x20) == 0;
}

struct IdatRun {
    size_t first_chunk = 0;  ///< offset of the first IDAT chunk in the file
    size_t chunk_count = 0;
    size_t data_bytes = 0;
};

// Walks the chunks up to the end of the first run of IDAT chunks. Like libspng, nothing after
// that run matters for the pixels. Anything this decoder does not take (PLTE, tRNS, unknown
// critical chunks) or that looks damaged (bad framing, bad IDAT CRC) ends the fast path.
std::optional<IdatRun> find_idat_run(std::span<const uint8_t> png) {
    IdatRun run;
    size_t pos = kFirstChunkAfterIhdr;
    for (;;) {
        if (png.size() - pos < png::kChunkOverhead) {
            return std::nullopt;
        }
        const uint8_t* chunk = png.data() + pos;
        const uint32_t length = png::read_be32(chunk);
        if (length > png::kMaxChunkLength || png.size() - pos - png::kChunkOverhead < length ||
            !is_well_formed_type(chunk + 4)) {
            return std::nullopt;
        }
        const uint32_t type = png::read_be32(chunk + 4);
        if (type == png::chunk_type("IDAT")) {
            if (png::read_be32(chunk + 8 + length) != png::chunk_crc(chunk + 4, length)) {
                return std::nullopt;
            }
            if (run.chunk_count == 0) {
                run.first_chunk = pos;
            }
            ++run.chunk_count;
            run.data_bytes += length;
        } else if (run.chunk_count > 0) {
            return run;
        } else if (is_critical(chunk + 4)) {
            return std::nullopt;  // PLTE, a second IHDR, IEND before any IDAT, unknown
        } else if (type == png::chunk_type("tRNS")) {
            return std::nullopt;
        }
        pos += png::kChunkOverhead + length;
    }
}

// The zlib stream: in place when it sits in one IDAT chunk, else copied together.
std::span<const uint8_t> zlib_stream(std::span<const uint8_t> png, const IdatRun& run,
                                     DecodeContext& context) {
    if (run.chunk_count == 1) {
        return png.subspan(run.first_chunk + 8, run.data_bytes);
    }
    uint8_t* joined = context.idat.prepare(run.data_bytes);
    size_t pos = run.first_chunk;
    size_t filled = 0;
    for (size_t i = 0; i < run.chunk_count; ++i) {
        const uint32_t length = png::read_be32(png.data() + pos);
        std::memcpy(joined + filled, png.data() + pos + 8, length);
        filled += length;
        pos += png::kChunkOverhead + length;
    }
    return {joined, run.data_bytes};
}

}  // namespace

bool decode_png_fast(std::span<const uint8_t> png, Image& out, DecodeContext& context) {
    const std::optional<png::Ihdr> ihdr = png::read_ihdr(png);
    if (!ihdr || ihdr->bit_depth != 8 ||
        (ihdr->color_type != png::rgb && ihdr->color_type != png::rgba) || ihdr->compression != 0 ||
        ihdr->filter != 0 || ihdr->interlace != 0 || ihdr->width == 0 || ihdr->height == 0 ||
        ihdr->width > png::kMaxChunkLength || ihdr->height > png::kMaxChunkLength) {
        return false;
    }
    const std::optional<IdatRun> run = find_idat_run(png);
    if (!run) {
        return false;
    }

    const size_t width = ihdr->width;
    const size_t height = ihdr->height;
    const int source_bytes = ihdr->color_type == png::rgba ? 4 : 3;
    const size_t scanline_bytes = 1 + width * source_bytes;
    const size_t filtered_bytes = height * scanline_bytes;
    // The scanlines are inflated into the pixel buffer itself and unfiltered in place: one
    // buffer, written once, instead of a second one as large.
    const size_t offset = png::in_place_scanline_offset(width, height, source_bytes);
    uint8_t* pixels = prepare_pixels(out.rgba, offset + filtered_bytes + png::kUnfilterSlack);
    uint8_t* filtered = pixels + offset;
    std::memset(filtered + filtered_bytes, 0, png::kUnfilterSlack);

    const std::span<const uint8_t> stream = zlib_stream(png, *run, context);
    // Exactly the expected size: a short or overlong stream goes to libspng, which decides.
    if (libdeflate_zlib_decompress(context.inflater(), stream.data(), stream.size(), filtered,
                                   filtered_bytes, nullptr) != LIBDEFLATE_SUCCESS) {
        return false;
    }
    for (size_t y = 0; y < height; ++y) {
        if (filtered[y * scanline_bytes] > png::paeth) {
            return false;
        }
    }

    const size_t row_bytes = width * 4;
    if (context.zero_row.size() < row_bytes) {
        context.zero_row.assign(row_bytes, 0);
    }
    png::unfilter_image(filtered, width, height, source_bytes, context.zero_row.data(), pixels);
    out.width = ihdr->width;
    out.height = ihdr->height;
    out.rgba.resize(row_bytes * height);
    // Keep a zero row of screenshot width (a few KB), not one of a pathological 80 MP x 1 image.
    constexpr size_t kZeroRowKeepBytes = size_t{1} << 20;
    if (context.zero_row.size() > kZeroRowKeepBytes) {
        context.zero_row = {};
    }
    return true;
}

}  // namespace loupe::imagediff
