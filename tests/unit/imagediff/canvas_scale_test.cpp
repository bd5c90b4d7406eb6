// Canvases over CompareOptions::max_canvas_pixels: the fitted size, the box-filter downscale,
// and compare()/Differ on scaled canvases.

#include "canvas_scale.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <loupe/imagediff/imagediff.hpp>
#include <random>

#include "compare_context.hpp"
#include "test_images.hpp"

namespace loupe::imagediff {
namespace {

using test::filled;
using test::kBlack;
using test::kTransparent;
using test::kWhite;
using test::Rgba;
using test::set_pixel;

TEST_CASE("fit_canvas: Argos's scale factor, floored, within the limit") {
    CHECK(fit_canvas({1000, 80'000}, 80'000'000) == CanvasSize{1000, 80'000});
    CHECK(fit_canvas({1000, 90'000}, 80'000'000) == CanvasSize{942, 84'852});
    CHECK(fit_canvas({90'000, 1000}, 80'000'000) == CanvasSize{84'852, 942});
    CHECK(fit_canvas({10'000, 10'000}, 80'000'000) == CanvasSize{8944, 8944});
    // A side that would round to zero stays at one pixel; the other takes the whole budget.
    CHECK(fit_canvas({1, 100'000'000}, 80'000'000) == CanvasSize{1, 80'000'000});
    CHECK(fit_canvas({100, 10}, 1) == CanvasSize{1, 1});
    CHECK_THROWS_AS(fit_canvas({10, 10}, 0), std::invalid_argument);

    std::mt19937 random(5);
    for (int i = 0; i < 2000; ++i) {
        const CanvasSize canvas{1 + static_cast<uint32_t>(random() % 100'000),
                                1 + static_cast<uint32_t>(random() % 100'000)};
        const uint64_t limit = 1 + random() % 50'000'000;
        const CanvasSize fitted = fit_canvas(canvas, limit);
        CAPTURE(canvas.width);
        CAPTURE(canvas.height);
        CAPTURE(limit);
        CHECK(uint64_t{fitted.width} * fitted.height <= limit);
        CHECK(fitted.width >= 1);
        CHECK(fitted.width <= canvas.width);
        CHECK(fitted.height <= canvas.height);
    }
}

TEST_CASE("downscale: block averages with premultiplied alpha") {
    SUBCASE("a flat colour stays flat") {
        const Rgba colour{12, 200, 77, 255};
        Image out;
        downscale(filled(7, 5, colour), out, {7, 5}, {3, 2});
        CHECK(out.width == 3);
        CHECK(out.height == 2);
        for (uint32_t y = 0; y < 2; ++y) {
            for (uint32_t x = 0; x < 3; ++x) {
                CHECK(test::pixel(out, x, y) == colour);
            }
        }
    }
    SUBCASE("2x2 blocks") {
        Image image = filled(4, 2, kWhite);
        set_pixel(image, 0, 0, kBlack);  // block 0: one black of four
        set_pixel(image, 2, 0, kBlack);  // block 1: two black, one transparent, one white
        set_pixel(image, 3, 0, kBlack);
        set_pixel(image, 3, 1, kTransparent);
        Image out;
        downscale(image, out, {4, 2}, {2, 1});
        CHECK(test::pixel(out, 0, 0) == Rgba{191, 191, 191, 255});  // (3 * 255 + 2) / 4
        // Colour averaged over the opaque pixels only (premultiplied): 255 / 3 = 85.
        CHECK(test::pixel(out, 1, 0) == Rgba{85, 85, 85, 191});
    }
    SUBCASE("padding counts as transparent; the output covers only the image") {
        // A 3x3 image on a 5x5 canvas scaled to 2x2: blocks [0,2) and [2,5) both ways. The
        // image reaches into both; the second holds one image column (or pixel) of three.
        Image out;
        downscale(filled(3, 3, kWhite), out, {5, 5}, {2, 2});
        CHECK(out.width == 2);
        CHECK(out.height == 2);
        CHECK(test::pixel(out, 0, 0) == kWhite);
        CHECK(test::pixel(out, 1, 0) == Rgba{255, 255, 255, 85});  // 2 of 6 pixels
        CHECK(test::pixel(out, 1, 1) == Rgba{255, 255, 255, 28});  // 1 of 9 pixels

        Image small;
        downscale(filled(1, 1, kWhite), small, {6, 6}, {4, 4});
        CHECK(small.width == 1);
        CHECK(small.height == 1);
        CHECK(test::pixel(small, 0, 0) == kWhite);  // block [0,1) x [0,1)
    }
    SUBCASE("in place gives the same pixels as a copy") {
        const Image image = test::screenshot_like(301, 207, true, 9);
        Image copy;
        downscale(image, copy, {320, 230}, {211, 150});
        Image in_place = image;
        downscale(in_place, in_place, {320, 230}, {211, 150});
        CHECK(in_place.width == copy.width);
        CHECK(in_place.height == copy.height);
        CHECK(in_place.rgba == copy.rgba);
    }
}

TEST_CASE("compare: a canvas over 80 MP is scaled down to fit") {
    // 1000 x 90000 (90 MP) with a black band of 1000 rows: 1/90 of the page. Scaled in place,
    // as Differ does, to keep the test's memory at the two images (720 MB).
    Image base{1000, 90'000, std::vector<uint8_t>(size_t{1000} * 90'000 * 4, 255)};
    Image head = base;
    for (size_t i = size_t{40'000} * 1000; i < size_t{41'000} * 1000; ++i) {
        std::fill_n(head.rgba.begin() + static_cast<std::ptrdiff_t>(i * 4), 3, 0);
    }
    CompareScratch scratch;
    const DiffResult result = compare_in_place(base, head, CompareOptions{}, scratch);
    CHECK(result.width == 942);
    CHECK(result.height == 84'852);
    CHECK(result.base_width == 1000);
    CHECK(result.head_height == 90'000);
    CHECK(base.width == 942);
    CHECK(result.verdict == Verdict::changed);
    // The band's edges blend into grey rows in the scaled images; a couple of rows either way.
    CHECK(std::abs(result.score - 1.0 / 90) < 3.0 / 84'852);
    CHECK_FALSE(result.fingerprint.empty());
}

TEST_CASE("compare: a small limit scales the canvas, counts follow the scaled pixels") {
    Image base = filled(200, 100, kWhite);
    Image head = base;
    for (uint32_t y = 0; y < 100; ++y) {
        for (uint32_t x = 100; x < 200; ++x) {
            set_pixel(head, x, y, kBlack);
        }
    }
    CompareOptions options;
    options.max_canvas_pixels = 5000;  // 200 x 100 -> 100 x 50
    const DiffResult result = compare(base, head, options);
    CHECK(result.width == 100);
    CHECK(result.height == 50);
    CHECK(result.base_pass.differing_pixels == 2500);
    CHECK(result.score == doctest::Approx(0.5));
    Image mask;
    decode(result.mask_png, mask);
    CHECK(mask.width == 100);
    CHECK(mask.height == 50);

    options.max_canvas_pixels = 0;
    CHECK_THROWS_AS(compare(base, head, options), std::invalid_argument);
}

TEST_CASE("Differ: scales in place and agrees with compare()") {
    const Image base = test::screenshot_like(300, 2000, true, 21);
    const Image head = test::mutated(base, 22);
    CompareOptions options;
    options.max_canvas_pixels = 150'000;
    const DiffResult expected = compare(base, head, options);
    REQUIRE(uint64_t{expected.width} * expected.height <= 150'000);
    CHECK(expected.width < 300);
    Differ differ;
    const DiffResult result = differ.diff_bytes(encode_png(base), encode_png(head), options);
    CHECK(result.width == expected.width);
    CHECK(result.height == expected.height);
    CHECK(result.base_width == 300);
    CHECK(result.base_height == 2000);
    CHECK(result.base_pass.differing_pixels == expected.base_pass.differing_pixels);
    CHECK(result.color_pass.differing_pixels == expected.color_pass.differing_pixels);
    CHECK(result.mask_png == expected.mask_png);
    CHECK(result.fingerprint == expected.fingerprint);

    SUBCASE("identical bytes report the scaled canvas too") {
        const std::vector<uint8_t> png = encode_png(base);
        const DiffResult same = differ.diff_bytes(png, png, options);
        CHECK(same.width == expected.width);
        CHECK(same.height == expected.height);
        CHECK(same.base_width == 300);
    }
}

}  // namespace
}  // namespace loupe::imagediff
