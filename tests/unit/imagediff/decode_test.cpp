// decode(): every PNG colour type, bit depth and interlacing through libspng, JPEG through
// libjpeg-turbo, and the refusals.

#include <doctest/doctest.h>
#include <libdeflate.h>
#include <turbojpeg.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <loupe/imagediff/imagediff.hpp>
#include <string>

#include "test_images.hpp"

namespace loupe::imagediff {
namespace {

using test::Rgba;

// Packs samples at `depth` bits, most significant bits first; 16-bit samples in host byte
// order, which is what libspng's SPNG_FMT_PNG expects.
std::vector<uint8_t> pack(const std::vector<uint16_t>& samples, uint32_t width, uint32_t height,
                          unsigned channels, unsigned depth) {
    const size_t row_bits = size_t{width} * channels * depth;
    const size_t row_bytes = (row_bits + 7) / 8;
    std::vector<uint8_t> out(row_bytes * height, 0);
    for (uint32_t y = 0; y < height; ++y) {
        for (size_t i = 0; i < size_t{width} * channels; ++i) {
            const uint16_t v = samples[y * size_t{width} * channels + i];
            uint8_t* row = out.data() + y * row_bytes;
            if (depth == 16) {
                std::memcpy(row + i * 2, &v, 2);
            } else if (depth == 8) {
                row[i] = static_cast<uint8_t>(v);
            } else {
                const size_t bit = i * depth;
                row[bit / 8] |= static_cast<uint8_t>(v << (8 - depth - bit % 8));
            }
        }
    }
    return out;
}

uint8_t scale_to_8(uint16_t v, unsigned depth) {
    switch (depth) {
        case 1:
            return v ? 255 : 0;
        case 2:
            return static_cast<uint8_t>(v * 85);
        case 4:
            return static_cast<uint8_t>(v * 17);
        case 8:
            return static_cast<uint8_t>(v);
        default:
            return static_cast<uint8_t>(v >> 8);
    }
}

struct Sampled {
    std::vector<uint16_t> samples;
    std::vector<Rgba> expected;
};

// A deterministic pattern over the full sample range for the given type and depth.
Sampled make_samples(uint32_t width, uint32_t height, uint8_t color_type, unsigned depth,
                     const std::vector<Rgba>& palette, const std::vector<uint16_t>* trns) {
    const unsigned channels = color_type == 0 || color_type == 3 ? 1
                              : color_type == 4                  ? 2
                              : color_type == 2                  ? 3
                                                                 : 4;
    const uint32_t max = depth == 16 ? 65535 : (1u << depth) - 1;
    Sampled s;
    for (uint32_t y = 0; y < height; ++y) {
        for (uint32_t x = 0; x < width; ++x) {
            uint16_t v[4];
            for (unsigned c = 0; c < channels; ++c) {
                const uint32_t raw = (x * 7919u + y * 104729u + c * 31337u) * 2654435761u >> 7;
                v[c] =
                    static_cast<uint16_t>(color_type == 3 ? raw % palette.size() : raw % (max + 1));
                s.samples.push_back(v[c]);
            }
            Rgba e;
            switch (color_type) {
                case 0:
                    e = test::grey(scale_to_8(v[0], depth));
                    if (trns && v[0] == (*trns)[0]) {
                        e.a = 0;
                    }
                    break;
                case 4:
                    e = test::grey(scale_to_8(v[0], depth));
                    e.a = scale_to_8(v[1], depth);
                    break;
                case 2:
                    e = {scale_to_8(v[0], depth), scale_to_8(v[1], depth), scale_to_8(v[2], depth),
                         255};
                    if (trns && v[0] == (*trns)[0] && v[1] == (*trns)[1] && v[2] == (*trns)[2]) {
                        e.a = 0;
                    }
                    break;
                case 6:
                    e = {scale_to_8(v[0], depth), scale_to_8(v[1], depth), scale_to_8(v[2], depth),
                         scale_to_8(v[3], depth)};
                    break;
                default:
                    e = palette[v[0]];
                    if (trns && v[0] < trns->size()) {
                        e.a = static_cast<uint8_t>((*trns)[v[0]]);
                    }
                    break;
            }
            s.expected.push_back(e);
        }
    }
    return s;
}

void check_decodes(uint8_t color_type, unsigned depth, bool interlaced, bool with_trns) {
    CAPTURE(int(color_type));
    CAPTURE(depth);
    CAPTURE(interlaced);
    CAPTURE(with_trns);
    const uint32_t width = 37, height = 23;
    std::vector<Rgba> palette;
    std::vector<uint16_t> trns;
    if (color_type == 3) {
        for (uint32_t i = 0; i < (1u << depth); ++i) {
            palette.push_back({uint8_t(i * 37), uint8_t(255 - i * 11), uint8_t(i * 101), 255});
        }
        if (with_trns) {
            trns = {0, 128, 255};
        }
    } else if (with_trns) {
        trns = color_type == 0 ? std::vector<uint16_t>{1} : std::vector<uint16_t>{0, 1, 2};
    }
    const Sampled s =
        make_samples(width, height, color_type, depth, palette, with_trns ? &trns : nullptr);
    const unsigned channels = color_type == 0 || color_type == 3 ? 1
                              : color_type == 4                  ? 2
                              : color_type == 2                  ? 3
                                                                 : 4;
    const std::vector<uint8_t> packed = pack(s.samples, width, height, channels, depth);
    test::SpngEncoding encoding;
    encoding.color_type = color_type;
    encoding.bit_depth = static_cast<uint8_t>(depth);
    encoding.interlaced = interlaced;
    const std::vector<uint8_t> png = test::encode_with_spng(packed, width, height, encoding,
                                                            palette, with_trns ? &trns : nullptr);
    CHECK(sniff_format(png) == Format::png);
    Image image;
    decode(png, image);
    REQUIRE(image.width == width);
    REQUIRE(image.height == height);
    REQUIRE(image.rgba.size() == size_t{width} * height * 4);
    size_t wrong = 0;
    for (uint32_t y = 0; y < height; ++y) {
        for (uint32_t x = 0; x < width; ++x) {
            wrong += test::pixel(image, x, y) == s.expected[y * width + x] ? 0 : 1;
        }
    }
    CHECK(wrong == 0);
}

TEST_CASE("decode PNG: every colour type and bit depth, plain and interlaced") {
    for (const bool interlaced : {false, true}) {
        for (const unsigned depth : {1u, 2u, 4u, 8u, 16u}) {
            check_decodes(0, depth, interlaced, false);
        }
        for (const unsigned depth : {1u, 2u, 4u, 8u}) {
            check_decodes(3, depth, interlaced, false);
        }
        for (const unsigned depth : {8u, 16u}) {
            check_decodes(2, depth, interlaced, false);
            check_decodes(4, depth, interlaced, false);
            check_decodes(6, depth, interlaced, false);
        }
    }
}

TEST_CASE("decode PNG: tRNS makes matching pixels transparent") {
    for (const bool interlaced : {false, true}) {
        check_decodes(0, 8, interlaced, true);
        check_decodes(0, 2, interlaced, true);
        check_decodes(0, 16, interlaced, true);
        check_decodes(2, 8, interlaced, true);
        check_decodes(2, 16, interlaced, true);
        check_decodes(3, 8, interlaced, true);
        check_decodes(3, 4, interlaced, true);
    }
}

TEST_CASE("decode PNG: 8-bit RGB and RGBA, the fast path's formats") {
    for (const bool alpha : {false, true}) {
        const Image source = test::screenshot_like(131, 77, alpha, 3);
        std::vector<uint8_t> samples;
        for (size_t i = 0; i < size_t{source.width} * source.height; ++i) {
            samples.insert(samples.end(), source.rgba.begin() + i * 4,
                           source.rgba.begin() + i * 4 + (alpha ? 4 : 3));
        }
        test::SpngEncoding encoding;
        encoding.color_type = alpha ? 6 : 2;
        Image image;
        decode(test::encode_with_spng(samples, source.width, source.height, encoding), image);
        if (alpha) {
            CHECK(image.rgba == source.rgba);
        } else {
            Image opaque = source;
            for (size_t i = 3; i < opaque.rgba.size(); i += 4) {
                opaque.rgba[i] = 255;
            }
            CHECK(image.rgba == opaque.rgba);
        }
    }
}

TEST_CASE("decode JPEG: colour and greyscale to RGBA") {
    Image source = test::filled(64, 48, test::kWhite);
    for (uint32_t y = 0; y < 48; ++y) {
        for (uint32_t x = 0; x < 64; ++x) {
            test::set_pixel(source, x, y, {uint8_t(x * 4), uint8_t(y * 5), 128, 255});
        }
    }
    for (const int subsampling : {TJSAMP_444, TJSAMP_420, TJSAMP_GRAY}) {
        CAPTURE(subsampling);
        const std::vector<uint8_t> jpeg = test::encode_jpeg(source, 95, subsampling);
        CHECK(sniff_format(jpeg) == Format::jpeg);
        Image image;
        decode(jpeg, image);
        REQUIRE(image.width == 64);
        REQUIRE(image.height == 48);
        int worst = 0;
        for (uint32_t y = 0; y < 48; ++y) {
            for (uint32_t x = 0; x < 64; ++x) {
                const Rgba got = test::pixel(image, x, y);
                CHECK(got.a == 255);
                if (subsampling == TJSAMP_GRAY) {
                    CHECK(got.r == got.g);
                    CHECK(got.g == got.b);
                } else {
                    const Rgba want = test::pixel(source, x, y);
                    worst = std::max({worst, std::abs(got.r - want.r), std::abs(got.g - want.g),
                                      std::abs(got.b - want.b)});
                }
            }
        }
        CHECK(worst <= 12);
    }
}

TEST_CASE("decode: sniffing by magic bytes") {
    const uint8_t png[] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0};
    const uint8_t jpeg[] = {0xff, 0xd8, 0xff, 0xe0};
    const uint8_t gif[] = {'G', 'I', 'F', '8', '9', 'a'};
    CHECK(sniff_format(png) == Format::png);
    CHECK(sniff_format(jpeg) == Format::jpeg);
    CHECK(sniff_format(gif) == Format::unknown);
    CHECK(sniff_format({}) == Format::unknown);
    CHECK(sniff_format(std::span(png, 7)) == Format::unknown);
}

std::vector<uint8_t> small_png() {
    return test::encode_with_filters(test::screenshot_like(40, 30, false, 8), false,
                                     std::vector<uint8_t>{0, 1, 2, 3, 4});
}

void check_refused(std::span<const uint8_t> bytes, const std::string& fragment,
                   const DecodeOptions& options = {}) {
    Image image;
    try {
        decode(bytes, image, options);
        FAIL("decoded without an error");
    } catch (const DecodeError& e) {
        CHECK_MESSAGE(std::string(e.what()).find(fragment) != std::string::npos,
                      std::string(e.what()));
    }
}

// A PNG whose IHDR claims `width` x `height` (CRC fixed up), followed by the rest of `png`.
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

TEST_CASE("decode: refuses what is not a valid image") {
    const std::vector<uint8_t> png = small_png();
    SUBCASE("empty") {
        check_refused({}, "empty");
    }
    SUBCASE("garbage") {
        const std::vector<uint8_t> garbage(1000, 0x42);
        check_refused(garbage, "not a PNG or JPEG");
    }
    SUBCASE("a PNG cut in half") {
        check_refused(std::span(png).first(png.size() / 2), "malformed or truncated");
    }
    SUBCASE("a PNG cut inside its header") {
        check_refused(std::span(png).first(20), "malformed or truncated");
    }
    SUBCASE("a PNG with a damaged pixel stream") {
        std::vector<uint8_t> damaged = png;
        for (size_t i = png.size() / 2; i < png.size() / 2 + 40; ++i) {
            damaged[i] ^= 0x5a;
        }
        check_refused(damaged, "malformed or truncated");
    }
    SUBCASE("a JPEG cut short") {
        const std::vector<uint8_t> jpeg =
            test::encode_jpeg(test::screenshot_like(64, 64, false, 2), 90, TJSAMP_420);
        check_refused(std::span(jpeg).first(jpeg.size() / 2), "JPEG");
    }
    SUBCASE("a JPEG header only") {
        const std::vector<uint8_t> jpeg =
            test::encode_jpeg(test::screenshot_like(16, 16, false, 2), 90, TJSAMP_420);
        check_refused(std::span(jpeg).first(4), "JPEG");
    }
    SUBCASE("zero width") {
        check_refused(with_dimensions(png, 0, 30), "zero width or height");
    }
}

TEST_CASE("decode: refuses images over the pixel limit before allocating") {
    Image image;
    SUBCASE("a header claiming 100000 x 100000 pixels") {
        check_refused(with_dimensions(small_png(), 100000, 100000), "more than the limit");
    }
    SUBCASE("a header claiming more pixels than its data can hold") {
        // 2000 x 2000 is under the limit, but a few hundred bytes of zlib data cannot expand
        // to 12 MB: refused from the sizes alone, before the pixel buffer is allocated.
        check_refused(with_dimensions(small_png(), 2000, 2000), "too short for its size");
    }
    SUBCASE("a configurable limit") {
        DecodeOptions options;
        options.max_pixels = 40 * 30 - 1;
        check_refused(small_png(), "limit of 1199 pixels", options);
        options.max_pixels = 40 * 30;
        decode(small_png(), image, options);
        CHECK(image.width == 40);
    }
    SUBCASE("JPEG too") {
        DecodeOptions options;
        options.max_pixels = 100;
        const std::vector<uint8_t> jpeg =
            test::encode_jpeg(test::screenshot_like(16, 16, false, 2), 90, TJSAMP_420);
        check_refused(jpeg, "more than the limit", options);
    }
}

TEST_CASE("decode: reuses the output buffer") {
    const std::vector<uint8_t> big = test::encode_with_filters(
        test::screenshot_like(200, 100, true, 4), true, std::vector<uint8_t>{4});
    const std::vector<uint8_t> small = small_png();
    Image image;
    decode(big, image);
    const uint8_t* buffer = image.rgba.data();
    const size_t capacity = image.rgba.capacity();
    decode(small, image);
    decode(big, image);
    CHECK(image.rgba.data() == buffer);
    CHECK(image.rgba.capacity() == capacity);
    CHECK(image.width == 200);
}

}  // namespace
}  // namespace loupe::imagediff
