#include "jpeg_decode.hpp"

#include <turbojpeg.h>

#include <string>

#include "pixel_memory.hpp"

namespace loupe::imagediff {
namespace {

[[noreturn]] void fail(tjhandle handle) {
    throw DecodeError(std::string("The JPEG image is malformed or truncated (") +
                      tjGetErrorStr2(handle) + ").");
}

}  // namespace

Dimensions read_jpeg_dimensions(std::span<const uint8_t> jpeg, DecodeContext& context) {
    tjhandle handle = context.jpeg_decompressor();
    int width = 0;
    int height = 0;
    int subsampling = 0;
    int colorspace = 0;
    if (tjDecompressHeader3(handle, jpeg.data(), static_cast<unsigned long>(jpeg.size()), &width,
                            &height, &subsampling, &colorspace) != 0) {
        fail(handle);
    }
    if (width <= 0 || height <= 0) {
        throw DecodeError("The JPEG image has zero width or height.");
    }
    return {static_cast<uint32_t>(width), static_cast<uint32_t>(height)};
}

void decode_jpeg(std::span<const uint8_t> jpeg, Image& out, const DecodeOptions& options,
                 DecodeContext& context) {
    const Dimensions size = read_jpeg_dimensions(jpeg, context);
    check_pixel_limit(size.width, size.height, options);
    uint8_t* pixels = prepare_pixels(out.rgba, size_t{size.width} * size.height * 4);
    // Accurate DCT for results that do not depend on the SIMD flavour; warnings (truncated
    // data, corrupt segments) are errors, as they are for sharp (Argos) and odiff.
    const int flags = TJFLAG_ACCURATEDCT | TJFLAG_STOPONWARNING | TJFLAG_LIMITSCANS;
    tjhandle handle = context.jpeg_decompressor();
    if (tjDecompress2(handle, jpeg.data(), static_cast<unsigned long>(jpeg.size()), pixels,
                      static_cast<int>(size.width), 0, static_cast<int>(size.height), TJPF_RGBA,
                      flags) != 0) {
        fail(handle);
    }
    out.width = size.width;
    out.height = size.height;
}

}  // namespace loupe::imagediff
