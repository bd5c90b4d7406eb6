#include "thumbnails/thumbnail_image.hpp"

#include <turbojpeg.h>

#include <algorithm>
#include <memory>
#include <stdexcept>

#include "loupe/imagediff/imagediff.hpp"

namespace loupe::builds {
namespace {

constexpr int jpeg_quality = 82;
/// Thumbnails of huge pages are not worth decoding 160 MP for.
constexpr uint64_t max_source_pixels = 40'000'000;

/// Area-averaged RGB of `source` scaled by `scale` (< 1 shrinks), cropped to out_w × out_h,
/// alpha composited on white.
std::vector<uint8_t> shrink(const imagediff::Image& source, double scale, int out_w, int out_h) {
    std::vector<uint8_t> rgb(static_cast<std::size_t>(out_w) * out_h * 3);
    const double step = 1.0 / scale;  // source pixels per output pixel, along each axis
    std::vector<double> sums(static_cast<std::size_t>(out_w) * 4);
    for (int y = 0; y < out_h; ++y) {
        std::fill(sums.begin(), sums.end(), 0.0);
        const double y0 = y * step;
        const double y1 = std::min<double>((y + 1) * step, source.height);
        for (auto sy = static_cast<uint32_t>(y0); sy < source.height && sy < y1; ++sy) {
            const double weight_y = std::min<double>(sy + 1, y1) - std::max<double>(sy, y0);
            const uint8_t* row =
                source.rgba.data() + static_cast<std::size_t>(sy) * source.width * 4;
            for (int x = 0; x < out_w; ++x) {
                const double x0 = x * step;
                const double x1 = std::min<double>((x + 1) * step, source.width);
                double* sum = &sums[static_cast<std::size_t>(x) * 4];
                for (auto sx = static_cast<uint32_t>(x0); sx < source.width && sx < x1; ++sx) {
                    const double weight =
                        weight_y * (std::min<double>(sx + 1, x1) - std::max<double>(sx, x0));
                    const uint8_t* pixel = row + static_cast<std::size_t>(sx) * 4;
                    const double alpha = pixel[3] / 255.0;
                    // Composited on white before averaging: transparent areas read as white.
                    for (int c = 0; c < 3; ++c) {
                        sum[c] += weight * (pixel[c] * alpha + 255.0 * (1 - alpha));
                    }
                    sum[3] += weight;
                }
            }
        }
        for (int x = 0; x < out_w; ++x) {
            const double* sum = &sums[static_cast<std::size_t>(x) * 4];
            uint8_t* out = &rgb[(static_cast<std::size_t>(y) * out_w + x) * 3];
            for (int c = 0; c < 3; ++c) {
                const double value = sum[3] > 0 ? sum[c] / sum[3] : 255.0;
                out[c] = static_cast<uint8_t>(std::clamp(value + 0.5, 0.0, 255.0));
            }
        }
    }
    return rgb;
}

std::vector<uint8_t> encode_jpeg(const std::vector<uint8_t>& rgb, int width, int height) {
    std::unique_ptr<void, int (*)(tjhandle)> encoder(tjInitCompress(), tjDestroy);
    if (!encoder) {
        throw std::runtime_error("libjpeg-turbo: cannot create an encoder");
    }
    unsigned char* jpeg = nullptr;
    unsigned long jpeg_size = 0;
    if (tjCompress2(encoder.get(), rgb.data(), width, 0, height, TJPF_RGB, &jpeg, &jpeg_size,
                    TJSAMP_420, jpeg_quality, TJFLAG_ACCURATEDCT) != 0) {
        const std::string error = tjGetErrorStr2(encoder.get());
        tjFree(jpeg);
        throw std::runtime_error("libjpeg-turbo: " + error);
    }
    std::vector<uint8_t> bytes(jpeg, jpeg + jpeg_size);
    tjFree(jpeg);
    return bytes;
}

}  // namespace

std::vector<uint8_t> make_thumbnail(std::span<const uint8_t> image, const ThumbnailSize& size) {
    imagediff::Image source;
    imagediff::DecodeOptions options;
    options.max_pixels = max_source_pixels;
    imagediff::decode(image, source, options);
    if (source.width == 0 || source.height == 0) {
        throw imagediff::DecodeError("The image is empty.");
    }
    const double scale = std::min(1.0, static_cast<double>(size.width) / source.width);
    const int out_w = std::max(1, static_cast<int>(source.width * scale + 0.5));
    const int full_h = std::max(1, static_cast<int>(source.height * scale + 0.5));
    const int out_h = std::min(full_h, std::max(1, size.max_height));
    return encode_jpeg(shrink(source, scale, out_w, out_h), out_w, out_h);
}

Thumbnail ScreenshotThumbnailsImpl::render(std::span<const uint8_t> image,
                                           const ThumbnailSize& size) const {
    try {
        return Thumbnail{make_thumbnail(image, size), ""};
    } catch (const imagediff::DecodeError& error) {
        return Thumbnail{{}, error.what()};
    }
}

}  // namespace loupe::builds
