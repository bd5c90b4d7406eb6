#include "png_decode.hpp"

#include <spng.h>

#include <memory>
#include <new>
#include <string>

#include "decode_context.hpp"
#include "pixel_memory.hpp"

namespace loupe::imagediff {
namespace {

// Bounds libspng's memory for ancillary chunks (text, ICC profiles), as odiff does.
constexpr size_t kChunkMemoryLimit = size_t{64} << 20;

using SpngContext = std::unique_ptr<spng_ctx, decltype(&spng_ctx_free)>;

void check(int result) {
    if (result != 0) {
        throw DecodeError(std::string("The PNG image is malformed or truncated (") +
                          spng_strerror(result) + ").");
    }
}

}  // namespace

void decode_png_spng(std::span<const uint8_t> png, Image& out, const DecodeOptions& options) {
    SpngContext context(spng_ctx_new(0), spng_ctx_free);
    if (!context) {
        throw std::bad_alloc();
    }
    check(spng_set_chunk_limits(context.get(), kChunkMemoryLimit, kChunkMemoryLimit));
    check(spng_set_png_buffer(context.get(), png.data(), png.size()));

    spng_ihdr ihdr{};
    check(spng_get_ihdr(context.get(), &ihdr));
    check_pixel_limit(ihdr.width, ihdr.height, options);

    size_t size = 0;
    check(spng_decoded_image_size(context.get(), SPNG_FMT_RGBA8, &size));
    if (size != uint64_t{ihdr.width} * ihdr.height * 4) {
        throw DecodeError("The PNG image has an unexpected decoded size.");
    }
    check(spng_decode_image(context.get(), prepare_pixels(out.rgba, size), size, SPNG_FMT_RGBA8,
                            SPNG_DECODE_TRNS));
    out.width = ihdr.width;
    out.height = ihdr.height;
}

}  // namespace loupe::imagediff
