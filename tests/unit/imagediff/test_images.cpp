#include "test_images.hpp"

#include <libdeflate.h>
#include <spng.h>
#include <turbojpeg.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

namespace loupe::imagediff::test {

Image filled(uint32_t width, uint32_t height, Rgba colour) {
    Image image;
    image.width = width;
    image.height = height;
    image.rgba.resize(size_t{width} * height * 4);
    for (size_t i = 0; i < size_t{width} * height; ++i) {
        std::memcpy(image.rgba.data() + i * 4, &colour, 4);
    }
    return image;
}

void set_pixel(Image& image, uint32_t x, uint32_t y, Rgba colour) {
    std::memcpy(image.rgba.data() + (size_t{y} * image.width + x) * 4, &colour, 4);
}

Rgba pixel(const Image& image, uint32_t x, uint32_t y) {
    Rgba colour;
    std::memcpy(&colour, image.rgba.data() + (size_t{y} * image.width + x) * 4, 4);
    return colour;
}

Rgba grey(uint8_t level) {
    return {level, level, level, 255};
}

Image screenshot_like(uint32_t width, uint32_t height, bool with_alpha, uint32_t seed) {
    std::mt19937 rng(seed);
    const auto below = [&](uint32_t n) { return n == 0 ? 0u : static_cast<uint32_t>(rng() % n); };
    Image image = filled(width, height, kWhite);
    // Flat panels with hard edges.
    for (int i = 0; i < 6; ++i) {
        const uint32_t x0 = below(width), y0 = below(height);
        const uint32_t x1 = std::min(width, x0 + 1 + below(width / 2 + 1));
        const uint32_t y1 = std::min(height, y0 + 1 + below(height / 2 + 1));
        const Rgba colour{uint8_t(rng()), uint8_t(rng()), uint8_t(rng()),
                          uint8_t(with_alpha && i % 3 == 0 ? rng() : 255)};
        for (uint32_t y = y0; y < y1; ++y) {
            for (uint32_t x = x0; x < x1; ++x) {
                set_pixel(image, x, y, colour);
            }
        }
    }
    // A horizontal gradient band and a noisy band.
    for (uint32_t y = height / 3; y < height / 3 + std::max(1u, height / 8); ++y) {
        for (uint32_t x = 0; x < width; ++x) {
            const auto level = static_cast<uint8_t>(x * 255 / std::max(1u, width - 1));
            set_pixel(image, x, y, {level, uint8_t(255 - level), 128, 255});
        }
    }
    for (uint32_t y = height / 2; y < height / 2 + std::max(1u, height / 10); ++y) {
        for (uint32_t x = 0; x < width; ++x) {
            set_pixel(image, x, y,
                      {uint8_t(rng()), uint8_t(rng()), uint8_t(rng()),
                       uint8_t(with_alpha ? rng() : 255)});
        }
    }
    // "Text": short dark strokes with grey (anti-aliased) ends.
    for (uint32_t i = 0; i < width * height / 64; ++i) {
        const uint32_t x = below(width), y = below(height);
        const uint32_t len = 1 + below(6);
        for (uint32_t k = 0; k < len && x + k < width; ++k) {
            set_pixel(image, x + k, y, k + 1 == len ? grey(160) : grey(30));
        }
    }
    if (with_alpha) {
        for (uint32_t x = 0; x < width; x += 3) {
            set_pixel(image, x, 0, kTransparent);
        }
    }
    return image;
}

Image mutated(const Image& image, uint32_t seed) {
    std::mt19937 rng(seed);
    Image out = image;
    const uint32_t w = image.width, h = image.height;
    const size_t changes = std::max<size_t>(1, size_t{w} * h / 50);
    for (size_t i = 0; i < changes; ++i) {
        const uint32_t x = rng() % w, y = rng() % h;
        Rgba p = pixel(out, x, y);
        if (i % 2 == 0) {
            const int step = static_cast<int>(rng() % 7) - 3;  // a few grey levels
            p.r = static_cast<uint8_t>(std::clamp(p.r + step, 0, 255));
            p.g = static_cast<uint8_t>(std::clamp(p.g + step, 0, 255));
        } else {
            p = {uint8_t(rng()), uint8_t(rng()), uint8_t(rng()), uint8_t(i % 5 == 0 ? rng() : 255)};
        }
        set_pixel(out, x, y, p);
    }
    // A block moved down by one pixel.
    for (uint32_t y = std::min(h - 1, h / 4 + h / 5); y > h / 4; --y) {
        for (uint32_t x = w / 4; x < w / 2; ++x) {
            set_pixel(out, x, y, pixel(image, x, y - 1));
        }
    }
    return out;
}

std::vector<uint8_t> encode_with_spng(std::span<const uint8_t> samples, uint32_t width,
                                      uint32_t height, const SpngEncoding& encoding,
                                      std::span<const Rgba> palette,
                                      const std::vector<uint16_t>* trns) {
    spng_ctx* ctx = spng_ctx_new(SPNG_CTX_ENCODER);
    spng_set_option(ctx, SPNG_ENCODE_TO_BUFFER, 1);
    spng_ihdr ihdr{width,
                   height,
                   encoding.bit_depth,
                   encoding.color_type,
                   0,
                   0,
                   static_cast<uint8_t>(encoding.interlaced ? 1 : 0)};
    int rc = spng_set_ihdr(ctx, &ihdr);
    if (!palette.empty()) {
        spng_plte plte{};
        plte.n_entries = static_cast<uint32_t>(palette.size());
        for (size_t i = 0; i < palette.size(); ++i) {
            plte.entries[i] = {palette[i].r, palette[i].g, palette[i].b, 255};
        }
        rc = rc ? rc : spng_set_plte(ctx, &plte);
    }
    if (trns != nullptr) {
        spng_trns t{};
        if (encoding.color_type == 0) {
            t.gray = (*trns)[0];
        } else if (encoding.color_type == 2) {
            t.red = (*trns)[0];
            t.green = (*trns)[1];
            t.blue = (*trns)[2];
        } else {
            t.n_type3_entries = static_cast<uint32_t>(trns->size());
            for (size_t i = 0; i < trns->size(); ++i) {
                t.type3_alpha[i] = static_cast<uint8_t>((*trns)[i]);
            }
        }
        rc = rc ? rc : spng_set_trns(ctx, &t);
    }
    if (encoding.filter_choice >= 0) {
        rc = rc ? rc : spng_set_option(ctx, SPNG_FILTER_CHOICE, encoding.filter_choice);
    }
    rc = rc ? rc
            : spng_encode_image(ctx, samples.data(), samples.size(), SPNG_FMT_PNG,
                                SPNG_ENCODE_FINALIZE);
    if (rc != 0) {
        spng_ctx_free(ctx);
        throw std::runtime_error(std::string("libspng encode: ") + spng_strerror(rc));
    }
    size_t size = 0;
    int error = 0;
    auto* buffer = static_cast<uint8_t*>(spng_get_png_buffer(ctx, &size, &error));
    std::vector<uint8_t> png(buffer, buffer + size);
    std::free(buffer);
    spng_ctx_free(ctx);
    return png;
}

namespace {

uint8_t paeth_predictor(int a, int b, int c) {
    const int p = a + b - c;
    const int pa = std::abs(p - a), pb = std::abs(p - b), pc = std::abs(p - c);
    if (pa <= pb && pa <= pc) {
        return static_cast<uint8_t>(a);
    }
    return static_cast<uint8_t>(pb <= pc ? b : c);
}

void put_be32(std::vector<uint8_t>& out, uint32_t v) {
    for (int shift = 24; shift >= 0; shift -= 8) {
        out.push_back(static_cast<uint8_t>(v >> shift));
    }
}

void put_chunk(std::vector<uint8_t>& out, const char* type, std::span<const uint8_t> data) {
    put_be32(out, static_cast<uint32_t>(data.size()));
    const size_t type_at = out.size();
    out.insert(out.end(), type, type + 4);
    out.insert(out.end(), data.begin(), data.end());
    put_be32(out, libdeflate_crc32(0, out.data() + type_at, data.size() + 4));
}

}  // namespace

std::vector<uint8_t> encode_with_filters(const Image& image, bool with_alpha,
                                         std::span<const uint8_t> filters, size_t idat_size) {
    const size_t bpp = with_alpha ? 4 : 3;
    const size_t stride = image.width * bpp;
    std::vector<uint8_t> rows(stride * image.height);
    for (size_t i = 0; i < size_t{image.width} * image.height; ++i) {
        std::memcpy(rows.data() + i * bpp, image.rgba.data() + i * 4, bpp);
    }
    std::vector<uint8_t> scanlines;
    for (size_t y = 0; y < image.height; ++y) {
        const uint8_t filter = filters[y % filters.size()];
        scanlines.push_back(filter);
        const uint8_t* row = rows.data() + y * stride;
        const uint8_t* above = y > 0 ? row - stride : nullptr;
        for (size_t i = 0; i < stride; ++i) {
            const int a = i >= bpp ? row[i - bpp] : 0;
            const int b = above ? above[i] : 0;
            const int c = above && i >= bpp ? above[i - bpp] : 0;
            int predictor = 0;
            switch (filter) {
                case 1:
                    predictor = a;
                    break;
                case 2:
                    predictor = b;
                    break;
                case 3:
                    predictor = (a + b) / 2;
                    break;
                case 4:
                    predictor = paeth_predictor(a, b, c);
                    break;
                default:
                    break;
            }
            scanlines.push_back(static_cast<uint8_t>(row[i] - predictor));
        }
    }
    libdeflate_compressor* compressor = libdeflate_alloc_compressor(6);
    std::vector<uint8_t> stream(libdeflate_zlib_compress_bound(compressor, scanlines.size()));
    stream.resize(libdeflate_zlib_compress(compressor, scanlines.data(), scanlines.size(),
                                           stream.data(), stream.size()));
    libdeflate_free_compressor(compressor);

    std::vector<uint8_t> png = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    std::vector<uint8_t> ihdr;
    put_be32(ihdr, image.width);
    put_be32(ihdr, image.height);
    ihdr.insert(ihdr.end(), {8, static_cast<uint8_t>(with_alpha ? 6 : 2), 0, 0, 0});
    put_chunk(png, "IHDR", ihdr);
    const uint8_t text[] = {'C', 'o', 'm', 'm', 'e', 'n', 't', 0, 'h', 'i'};
    put_chunk(png, "tEXt", text);  // an ancillary chunk the fast path must skip
    for (size_t offset = 0; offset < stream.size(); offset += idat_size) {
        put_chunk(png, "IDAT",
                  std::span(stream).subspan(offset, std::min(idat_size, stream.size() - offset)));
    }
    put_chunk(png, "IEND", {});
    return png;
}

std::vector<uint8_t> encode_jpeg(const Image& image, int quality, int subsampling) {
    tjhandle handle = tjInitCompress();
    unsigned char* buffer = nullptr;
    unsigned long size = 0;
    const int rc = tjCompress2(handle, image.rgba.data(), static_cast<int>(image.width), 0,
                               static_cast<int>(image.height), TJPF_RGBA, &buffer, &size,
                               subsampling, quality, TJFLAG_ACCURATEDCT);
    std::vector<uint8_t> jpeg;
    if (rc == 0) {
        jpeg.assign(buffer, buffer + size);
    }
    tjFree(buffer);
    tjDestroy(handle);
    if (rc != 0) {
        throw std::runtime_error("tjCompress2 failed");
    }
    return jpeg;
}

Image decode_with_spng(std::span<const uint8_t> png) {
    spng_ctx* ctx = spng_ctx_new(0);
    spng_set_png_buffer(ctx, png.data(), png.size());
    spng_ihdr ihdr{};
    size_t size = 0;
    int rc = spng_get_ihdr(ctx, &ihdr);
    rc = rc ? rc : spng_decoded_image_size(ctx, SPNG_FMT_RGBA8, &size);
    Image image;
    image.rgba.resize(size);
    rc =
        rc ? rc : spng_decode_image(ctx, image.rgba.data(), size, SPNG_FMT_RGBA8, SPNG_DECODE_TRNS);
    spng_ctx_free(ctx);
    if (rc != 0) {
        throw std::runtime_error(std::string("libspng decode: ") + spng_strerror(rc));
    }
    image.width = ihdr.width;
    image.height = ihdr.height;
    return image;
}

// ---------------------------------------------------------------------------------------------
// Reference: odiff 4.5 (src/diff.zig, color_delta.zig, antialiasing.zig) transcribed literally.

namespace {

struct Canvas {
    uint32_t width, height;
    std::vector<uint32_t> pixels;  // little-endian raw RGBA, as odiff reads them
    uint32_t raw(uint32_t x, uint32_t y) const { return pixels[size_t{y} * width + x]; }
};

Canvas pad(const Image& image, uint32_t width, uint32_t height) {
    Canvas canvas{width, height, std::vector<uint32_t>(size_t{width} * height, 0)};
    for (uint32_t y = 0; y < image.height; ++y) {
        for (uint32_t x = 0; x < image.width; ++x) {
            const uint8_t* p = image.rgba.data() + (size_t{y} * image.width + x) * 4;
            canvas.pixels[size_t{y} * width + x] =
                uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24;
        }
    }
    return canvas;
}

constexpr int64_t kShift = 12;
constexpr int64_t kOne = 1 << kShift;
int64_t fixed(double c) {
    return static_cast<int64_t>(c * kOne);
}

int64_t blend_fixed(int64_t c, int64_t alpha) {
    return alpha == 0 ? (255 << kShift) : (255 << kShift) + (c - 255) * alpha * kOne / 255;
}

int64_t color_delta_fixed(uint32_t a, uint32_t b) {
    int64_t y[2], i[2], q[2];
    const uint32_t pixels[2] = {a, b};
    for (int k = 0; k < 2; ++k) {
        const int64_t alpha = (pixels[k] >> 24) & 0xff;
        const int64_t r = blend_fixed(pixels[k] & 0xff, alpha);
        const int64_t g = blend_fixed((pixels[k] >> 8) & 0xff, alpha);
        const int64_t bl = blend_fixed((pixels[k] >> 16) & 0xff, alpha);
        y[k] = (r * fixed(0.29889531) + g * fixed(0.58662247) + bl * fixed(0.11448223)) >> kShift;
        i[k] = (r * fixed(0.59597799) + g * fixed(-0.27417610) + bl * fixed(-0.32180189)) >> kShift;
        q[k] = (r * fixed(0.21147017) + g * fixed(-0.52261711) + bl * fixed(0.31114694)) >> kShift;
    }
    const int64_t dy = y[0] - y[1], di = i[0] - i[1], dq = q[0] - q[1];
    return (dy * dy * fixed(0.5053) + di * di * fixed(0.299) + dq * dq * fixed(0.1957)) >>
           (2 * kShift);
}

double brightness(uint32_t pixel) {
    double r = pixel & 0xff, g = (pixel >> 8) & 0xff, b = (pixel >> 16) & 0xff;
    const double a = (pixel >> 24) & 0xff;
    if (a == 0.0) {
        r = g = b = 255.0;
    } else if (a < 255.0) {
        const double n = a / 255.0;
        r = 255.0 + ((r - 255.0) * n);
        g = 255.0 + ((g - 255.0) * n);
        b = 255.0 + ((b - 255.0) * n);
    }
    return (r * 0.29889531) + (g * 0.58662247) + (b * 0.11448223);
}

bool has_many_siblings(uint32_t x, uint32_t y, uint32_t width, uint32_t height,
                       const Canvas& image) {
    const uint32_t x0 = x > 0 ? x - 1 : 0, y0 = y > 0 ? y - 1 : 0;
    const uint32_t x1 = std::min(x + 1, width - 1), y1 = std::min(y + 1, height - 1);
    uint32_t zeroes = (x == x0 || x == x1 || y == y0 || y == y1) ? 1 : 0;
    const uint32_t base = image.raw(x, y);
    for (uint32_t ay = y0; ay <= y1; ++ay) {
        for (uint32_t ax = x0; ax <= x1; ++ax) {
            if (zeroes < 3 && (x != ax || y != ay) && image.raw(ax, ay) == base) {
                ++zeroes;
            }
        }
    }
    return zeroes >= 3;
}

bool detect(uint32_t x, uint32_t y, const Canvas& base, const Canvas& comp) {
    const uint32_t x0 = x > 0 ? x - 1 : 0, y0 = y > 0 ? y - 1 : 0;
    const uint32_t x1 = std::min(x + 1, base.width - 1), y1 = std::min(y + 1, base.height - 1);
    double min_delta = 0.0, max_delta = 0.0;
    uint32_t min_x = 0, min_y = 0, max_x = 0, max_y = 0;
    uint32_t zeroes = (x == x0 || x == x1 || y == y0 || y == y1) ? 1 : 0;
    const uint32_t base_color = base.raw(x, y);
    for (uint32_t ay = y0; ay <= y1; ++ay) {
        for (uint32_t ax = x0; ax <= x1; ++ax) {
            if (zeroes < 3 && (x != ax || y != ay)) {
                const uint32_t adjacent = base.raw(ax, ay);
                if (base_color == adjacent) {
                    ++zeroes;
                } else {
                    const double delta = brightness(base_color) - brightness(adjacent);
                    if (delta < min_delta) {
                        min_delta = delta;
                        min_x = ax;
                        min_y = ay;
                    } else if (delta > max_delta) {
                        max_delta = delta;
                        max_x = ax;
                        max_y = ay;
                    }
                }
            }
        }
    }
    if (zeroes >= 3 || min_delta == 0.0 || max_delta == 0.0) {
        return false;
    }
    return (has_many_siblings(min_x, min_y, base.width, base.height, base) ||
            has_many_siblings(max_x, max_y, base.width, base.height, base)) &&
           (has_many_siblings(min_x, min_y, comp.width, comp.height, comp) ||
            has_many_siblings(max_x, max_y, comp.width, comp.height, comp));
}

uint64_t odiff_pass(const Canvas& base, const Canvas& comp, double threshold,
                    std::vector<uint8_t>& mask) {
    const double max_delta_f64 = 35215.0 * (threshold * threshold);
    const auto max_delta = static_cast<int64_t>(max_delta_f64 * static_cast<double>(kOne));
    mask.assign(base.pixels.size(), 0);
    uint64_t count = 0;
    for (uint32_t y = 0; y < base.height; ++y) {
        for (uint32_t x = 0; x < base.width; ++x) {
            const uint32_t a = base.raw(x, y), b = comp.raw(x, y);
            if (a != b && color_delta_fixed(a, b) > max_delta &&
                !(detect(x, y, base, comp) || detect(x, y, comp, base))) {
                ++count;
                mask[size_t{y} * base.width + x] = 1;
            }
        }
    }
    return count;
}

}  // namespace

std::vector<uint8_t> reference_antialiasing(const Image& base, const Image& head) {
    const uint32_t width = std::max(base.width, head.width);
    const uint32_t height = std::max(base.height, head.height);
    const Canvas a = pad(base, width, height), b = pad(head, width, height);
    std::vector<uint8_t> verdicts(size_t{width} * height);
    for (uint32_t y = 0; y < height; ++y) {
        for (uint32_t x = 0; x < width; ++x) {
            verdicts[size_t{y} * width + x] = detect(x, y, a, b) || detect(x, y, b, a) ? 1 : 0;
        }
    }
    return verdicts;
}

ReferenceCounts reference_compare(const Image& base, const Image& head, double threshold) {
    const uint32_t width = std::max(base.width, head.width);
    const uint32_t height = std::max(base.height, head.height);
    const Canvas a = pad(base, width, height), b = pad(head, width, height);
    const double r = 2 * threshold;
    ReferenceCounts counts;
    counts.base_pass = odiff_pass(a, b, 0.15 * r, counts.base_mask);
    counts.color_pass = odiff_pass(a, b, 0.0225 * r, counts.color_mask);
    return counts;
}

std::vector<uint8_t> with_dimensions(std::vector<uint8_t> png, uint32_t width, uint32_t height) {
    const auto put = [&](size_t at, uint32_t v) {
        for (int i = 0; i < 4; ++i) {
            png[at + i] = static_cast<uint8_t>(v >> (24 - 8 * i));
        }
    };
    put(16, width);
    put(20, height);
    put(29, libdeflate_crc32(0, png.data() + 12, 17));
    return png;
}

}  // namespace loupe::imagediff::test
