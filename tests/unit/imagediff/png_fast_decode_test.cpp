// The fast PNG path must be byte-identical to libspng, and hand everything else to it.

#include "png_fast_decode.hpp"

#include <doctest/doctest.h>
#include <spng.h>

#include <algorithm>
#include <loupe/imagediff/imagediff.hpp>
#include <random>

#include "decode_context.hpp"
#include "png_decode.hpp"
#include "png_unfilter.hpp"
#include "test_images.hpp"

namespace loupe::imagediff {
namespace {

// Decodes with both paths; the fast path must accept the file.
void check_identical(const std::vector<uint8_t>& png) {
    DecodeContext context;
    Image fast;
    Image reference;
    REQUIRE(decode_png_fast(png, fast, context));
    decode_png_spng(png, reference, {});
    CHECK(fast.width == reference.width);
    CHECK(fast.height == reference.height);
    CHECK(fast.rgba == reference.rgba);
}

std::vector<uint8_t> samples_of(const Image& image, bool alpha) {
    std::vector<uint8_t> samples;
    for (size_t i = 0; i < size_t{image.width} * image.height; ++i) {
        samples.insert(samples.end(), image.rgba.begin() + i * 4,
                       image.rgba.begin() + i * 4 + (alpha ? 4 : 3));
    }
    return samples;
}

TEST_CASE("fast PNG path: identical to libspng for every filter choice of libspng's encoder") {
    const int choices[] = {SPNG_FILTER_CHOICE_NONE,  SPNG_FILTER_CHOICE_SUB,
                           SPNG_FILTER_CHOICE_UP,    SPNG_FILTER_CHOICE_AVG,
                           SPNG_FILTER_CHOICE_PAETH, SPNG_FILTER_CHOICE_ALL};
    const uint32_t sizes[][2] = {{1, 1}, {2, 3}, {3, 1}, {5, 9}, {17, 4}, {64, 33}, {333, 41}};
    uint32_t seed = 0;
    for (const bool alpha : {false, true}) {
        for (const auto& size : sizes) {
            const Image image = test::screenshot_like(size[0], size[1], alpha, ++seed);
            for (const int choice : choices) {
                CAPTURE(alpha);
                CAPTURE(size[0]);
                CAPTURE(size[1]);
                CAPTURE(choice);
                test::SpngEncoding encoding;
                encoding.color_type = alpha ? 6 : 2;
                encoding.filter_choice = choice;
                check_identical(
                    test::encode_with_spng(samples_of(image, alpha), size[0], size[1], encoding));
            }
        }
    }
}

TEST_CASE("fast PNG path: identical to libspng for any sequence of row filters") {
    // Runs of Sub/Average/Paeth rows are unfiltered interleaved (up to four at a time): cover
    // every mix, run length and alignment, and IDAT data split over many chunks.
    std::mt19937 rng(42);
    const uint8_t patterns[][8] = {
        {4}, {3}, {1}, {2}, {0}, {4, 4, 4, 4, 4, 0}, {4, 3, 1, 4, 2}, {1, 3, 4, 3, 1, 0, 4, 4},
    };
    const size_t pattern_lengths[] = {1, 1, 1, 1, 1, 6, 5, 8};
    for (const bool alpha : {false, true}) {
        for (const uint32_t width : {1u, 2u, 4u, 5u, 7u, 16u, 123u}) {
            const Image image = test::screenshot_like(width, 29, alpha, width * 3 + alpha);
            for (size_t p = 0; p < std::size(patterns); ++p) {
                CAPTURE(alpha);
                CAPTURE(width);
                CAPTURE(p);
                check_identical(test::encode_with_filters(
                    image, alpha, std::span(patterns[p], pattern_lengths[p]), 1 + rng() % 300));
            }
            std::vector<uint8_t> random_filters(29);
            for (uint8_t& f : random_filters) {
                f = static_cast<uint8_t>(rng() % 5);
            }
            check_identical(test::encode_with_filters(image, alpha, random_filters));
        }
    }
}

TEST_CASE("fast PNG path: vector unfiltering equals the byte-at-a-time reference") {
    // Baseline SSE2, SSSE3, and this CPU's best (AVX2 where present).
    const CpuFeatures kernel_sets[] = {CpuFeatures{}, CpuFeatures{true, false}, cpu_features()};
    std::mt19937 rng(7);
    for (const CpuFeatures& cpu : kernel_sets) {
        for (const int source_bytes : {3, 4}) {
            for (const size_t width : {1u, 3u, 4u, 8u, 13u, 64u, 257u}) {
                const size_t height = 40;
                const size_t scanline = 1 + width * source_bytes;
                std::vector<uint8_t> filtered(scanline * height + png::kUnfilterSlack);
                for (uint8_t& b : filtered) {
                    b = static_cast<uint8_t>(rng());
                }
                for (size_t y = 0; y < height; ++y) {
                    filtered[y * scanline] = static_cast<uint8_t>(rng() % 5);
                }
                const std::vector<uint8_t> zero(width * 4, 0);
                std::vector<uint8_t> fast(width * 4 * height), reference(width * 4 * height);
                png::unfilter_image(filtered.data(), width, height, source_bytes, zero.data(),
                                    fast.data(), cpu);
                png::unfilter_image_scalar(filtered.data(), width, height, source_bytes,
                                           zero.data(), reference.data());
                CAPTURE(cpu.ssse3);
                CAPTURE(cpu.avx2);
                CAPTURE(source_bytes);
                CAPTURE(width);
                CHECK(fast == reference);

                // In place: the scanlines inside the output buffer, where the decoder puts them.
                const size_t offset = png::in_place_scanline_offset(width, height, source_bytes);
                std::vector<uint8_t> shared(offset + filtered.size());
                std::copy(filtered.begin(), filtered.end(), shared.begin() + offset);
                png::unfilter_image(shared.data() + offset, width, height, source_bytes,
                                    zero.data(), shared.data(), cpu);
                shared.resize(width * 4 * height);
                CHECK(shared == reference);
            }
        }
    }
}

TEST_CASE("fast PNG path: leaves other formats to libspng") {
    DecodeContext context;
    Image image;
    const Image source = test::screenshot_like(20, 10, false, 1);
    test::SpngEncoding interlaced;
    interlaced.color_type = 2;
    interlaced.interlaced = true;
    CHECK_FALSE(decode_png_fast(
        test::encode_with_spng(samples_of(source, false), 20, 10, interlaced), image, context));
    std::vector<uint16_t> trns = {1, 2, 3};
    test::SpngEncoding rgb;
    rgb.color_type = 2;
    CHECK_FALSE(decode_png_fast(
        test::encode_with_spng(samples_of(source, false), 20, 10, rgb, {}, &trns), image, context));
    test::SpngEncoding grey;
    grey.color_type = 0;
    const std::vector<uint8_t> grey_samples(200, 77);
    CHECK_FALSE(
        decode_png_fast(test::encode_with_spng(grey_samples, 20, 10, grey), image, context));
    // ...and decode() still reads them.
    decode(test::encode_with_spng(grey_samples, 20, 10, grey), image);
    CHECK(test::pixel(image, 3, 3) == test::grey(77));
}

TEST_CASE("fast PNG path: hands damaged files to libspng, which reports them") {
    const Image source = test::screenshot_like(50, 40, true, 9);
    const std::vector<uint8_t> png =
        test::encode_with_filters(source, true, std::vector<uint8_t>{4, 1}, 500);
    DecodeContext context;
    Image image;
    SUBCASE("a bad IDAT checksum") {
        std::vector<uint8_t> damaged = png;
        damaged[damaged.size() - 40] ^= 1;
        CHECK_FALSE(decode_png_fast(damaged, image, context));
        CHECK_THROWS_AS(decode(damaged, image), DecodeError);
    }
    SUBCASE("truncated") {
        const std::vector<uint8_t> truncated(png.begin(), png.end() - 700);
        CHECK_FALSE(decode_png_fast(truncated, image, context));
        CHECK_THROWS_AS(decode(truncated, image), DecodeError);
    }
    SUBCASE("trailing bytes after IEND are ignored, as by libspng") {
        std::vector<uint8_t> padded = png;
        padded.insert(padded.end(), 100, 0xee);
        check_identical(padded);
    }
}

}  // namespace
}  // namespace loupe::imagediff
