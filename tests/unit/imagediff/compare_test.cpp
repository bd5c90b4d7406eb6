// compare(): exact counts on synthetic images, Argos's canvas rules, masks, and agreement with
// a naive transcription of odiff on varied images.

#include <doctest/doctest.h>

#include <loupe/imagediff/imagediff.hpp>

#include "test_images.hpp"

namespace loupe::imagediff {
namespace {

using test::filled;
using test::grey;
using test::kBlack;
using test::kRed;
using test::kTransparent;
using test::kWhite;
using test::set_pixel;

CompareOptions single_thread() {
    CompareOptions options;
    options.threads = 1;
    return options;
}

TEST_CASE("compare: identical images differ nowhere") {
    const Image image = test::screenshot_like(97, 61, true, 1);
    const DiffResult result = compare(image, image);
    CHECK(result.width == 97);
    CHECK(result.height == 61);
    CHECK(result.base_pass.differing_pixels == 0);
    CHECK(result.color_pass.differing_pixels == 0);
    CHECK(result.verdict == Verdict::unchanged);
    CHECK(result.mask_png.empty());
}

TEST_CASE("compare: a single changed pixel counts once in both passes") {
    const Image base = filled(10, 10, kWhite);
    Image head = base;
    set_pixel(head, 4, 6, kBlack);
    const DiffResult result = compare(base, head, single_thread());
    CHECK(result.base_pass.differing_pixels == 1);
    CHECK(result.color_pass.differing_pixels == 1);
    CHECK(result.base_pass.fraction == doctest::Approx(0.01));
    CHECK(result.chosen_pass == 1);
    CHECK(result.verdict == Verdict::changed);

    SUBCASE("on a 100x100 canvas one pixel is under the 0.02% floor") {
        const Image big_base = filled(100, 100, kWhite);
        Image big_head = big_base;
        set_pixel(big_head, 50, 50, kBlack);
        const DiffResult big = compare(big_base, big_head, single_thread());
        CHECK(big.base_pass.differing_pixels == 1);
        CHECK(big.verdict == Verdict::unchanged);
    }
}

TEST_CASE("compare: a horizontal line moved down by one pixel") {
    Image base = filled(64, 64, kWhite);
    Image head = base;
    for (uint32_t x = 0; x < 64; ++x) {
        set_pixel(base, x, 10, kBlack);
        set_pixel(head, x, 11, kBlack);
    }
    const DiffResult result = compare(base, head, single_thread());
    CHECK(result.base_pass.differing_pixels == 128);
    CHECK(result.color_pass.differing_pixels == 128);
}

TEST_CASE("compare: a small colour step counts in pass B only") {
    // Grey 128 -> 120 is a luma step of 8: delta ~32, above pass B's cut-off (35215 * 0.0225^2
    // = 17.8) and below pass A's (35215 * 0.15^2 = 792). 128 -> 80 passes both.
    Image base = filled(20, 20, grey(128));
    Image head = base;
    set_pixel(head, 5, 5, grey(120));
    set_pixel(head, 12, 12, grey(80));
    const DiffResult result = compare(base, head, single_thread());
    CHECK(result.base_pass.differing_pixels == 1);
    CHECK(result.color_pass.differing_pixels == 2);

    SUBCASE("a 2-level step is below both cut-offs at t = 0.5 but not at t = 0.1") {
        Image faint = base;
        set_pixel(faint, 5, 5, grey(126));
        CHECK(compare(base, faint, single_thread()).color_pass.differing_pixels == 0);
        CompareOptions strict = single_thread();
        strict.threshold = 0.1;  // pass B cut-off 35215 * 0.0045^2 = 0.71
        CHECK(compare(base, faint, strict).color_pass.differing_pixels == 1);
    }
}

TEST_CASE("compare: an anti-aliased edge pixel is ignored by both passes, as Argos runs odiff") {
    // A vertical edge: black columns 0-4, a grey anti-aliasing column 5, white from column 6.
    // The head re-rasterises column 5 darker: the pixel sits on a slope between two flat areas.
    Image base = filled(12, 12, kWhite);
    for (uint32_t y = 0; y < 12; ++y) {
        for (uint32_t x = 0; x < 5; ++x) {
            set_pixel(base, x, y, kBlack);
        }
        set_pixel(base, 5, y, grey(128));
    }
    Image head = base;
    set_pixel(head, 5, 6, grey(60));  // delta far above both cut-offs
    const DiffResult result = compare(base, head, single_thread());
    CHECK(result.base_pass.differing_pixels == 0);
    CHECK(result.color_pass.differing_pixels == 0);

    SUBCASE("the same change away from flat areas is counted") {
        Image noisy_base = test::screenshot_like(12, 12, false, 7);
        for (uint32_t y = 0; y < 12; ++y) {
            for (uint32_t x = 0; x < 12; ++x) {
                set_pixel(noisy_base, x, y,
                          {uint8_t(x * 20), uint8_t(y * 20), uint8_t((x * y) % 251), 255});
            }
        }
        Image noisy_head = noisy_base;
        set_pixel(noisy_head, 5, 6, grey(60));
        const DiffResult counted = compare(noisy_base, noisy_head, single_thread());
        CHECK(counted.base_pass.differing_pixels == 1);
        CHECK(counted.color_pass.differing_pixels == 1);
    }
}

TEST_CASE("compare: transparent is white") {
    SUBCASE("transparent against opaque white is equal") {
        const DiffResult result = compare(filled(8, 8, kTransparent), filled(8, 8, kWhite));
        CHECK(result.color_pass.differing_pixels == 0);
        CHECK(result.verdict == Verdict::unchanged);
    }
    SUBCASE("transparent against opaque black differs everywhere") {
        const DiffResult result = compare(filled(8, 8, kTransparent), filled(8, 8, kBlack));
        CHECK(result.base_pass.differing_pixels == 64);
        CHECK(result.color_pass.differing_pixels == 64);
    }
    SUBCASE("half-transparent black is mid grey") {
        // 255 + (0 - 255) * 128/255 = 127: a luma step of ~128 against white.
        const DiffResult result = compare(filled(8, 8, {0, 0, 0, 128}), filled(8, 8, grey(127)));
        CHECK(result.color_pass.differing_pixels == 0);
    }
}

TEST_CASE("compare: different sizes are padded top-left with transparent pixels") {
    SUBCASE("a taller white head: the padding is white, so equal") {
        const DiffResult result = compare(filled(10, 10, kWhite), filled(10, 12, kWhite));
        CHECK(result.width == 10);
        CHECK(result.height == 12);
        CHECK(result.base_height == 10);
        CHECK(result.head_height == 12);
        CHECK(result.color_pass.differing_pixels == 0);
    }
    SUBCASE("a taller head with black extra rows: each extra pixel differs") {
        Image head = filled(10, 12, kWhite);
        for (uint32_t x = 0; x < 10; ++x) {
            set_pixel(head, x, 10, kBlack);
            set_pixel(head, x, 11, kBlack);
        }
        const DiffResult result = compare(filled(10, 10, kWhite), head, single_thread());
        CHECK(result.base_pass.differing_pixels == 20);
        CHECK(result.color_pass.differing_pixels == 20);
        CHECK(result.base_pass.fraction == doctest::Approx(20.0 / 120.0));
    }
    SUBCASE("a wider base with black extra columns") {
        Image base = filled(10, 8, kWhite);
        for (uint32_t y = 0; y < 8; ++y) {
            set_pixel(base, 8, y, kBlack);
            set_pixel(base, 9, y, kBlack);
        }
        const DiffResult result = compare(base, filled(8, 8, kWhite), single_thread());
        CHECK(result.width == 10);
        CHECK(result.base_pass.differing_pixels == 16);
    }
    SUBCASE("one wider, the other taller: the canvas takes both maxima") {
        const DiffResult result =
            compare(filled(12, 5, kBlack), filled(5, 12, kBlack), single_thread());
        CHECK(result.width == 12);
        CHECK(result.height == 12);
        // Black where only one image has pixels: 7x5 + 5x7; the 7x7 corner is padding twice.
        CHECK(result.color_pass.differing_pixels == 70);
    }
    SUBCASE("an empty image against a real one") {
        const DiffResult result = compare(Image{}, filled(3, 2, kBlack), single_thread());
        CHECK(result.width == 3);
        CHECK(result.color_pass.differing_pixels == 6);
    }
}

TEST_CASE("compare: the mask paints the chosen pass red on transparent") {
    Image base = filled(20, 20, grey(128));
    Image head = base;
    set_pixel(head, 5, 5, grey(120));  // pass B only
    set_pixel(head, 12, 3, grey(30));  // both passes
    const DiffResult result = compare(base, head, single_thread());
    REQUIRE(result.chosen_pass == 1);
    REQUIRE(!result.mask_png.empty());
    const Image mask = test::decode_with_spng(result.mask_png);
    CHECK(mask.width == 20);
    CHECK(mask.height == 20);
    for (uint32_t y = 0; y < 20; ++y) {
        for (uint32_t x = 0; x < 20; ++x) {
            CHECK(test::pixel(mask, x, y) == (x == 12 && y == 3 ? kRed : kTransparent));
        }
    }
    CompareOptions no_mask = single_thread();
    no_mask.want_mask = false;
    CHECK(compare(base, head, no_mask).mask_png.empty());
}

TEST_CASE("compare: pass B's mask when pass B wins") {
    // 4% of the image changes by a small step: only pass B sees it, above its 3% floor.
    Image base = filled(50, 20, grey(128));
    Image head = base;
    for (uint32_t x = 0; x < 40; ++x) {
        set_pixel(head, x, 7, grey(120));
    }
    const DiffResult result = compare(base, head, single_thread());
    CHECK(result.base_pass.differing_pixels == 0);
    CHECK(result.color_pass.differing_pixels == 40);
    REQUIRE(result.chosen_pass == 2);
    const Image mask = test::decode_with_spng(result.mask_png);
    CHECK(test::pixel(mask, 0, 7) == kRed);
    CHECK(test::pixel(mask, 39, 7) == kRed);
    CHECK(test::pixel(mask, 40, 7) == kTransparent);
    CHECK(test::pixel(mask, 0, 6) == kTransparent);
}

TEST_CASE("compare: matches a literal port of odiff on varied images") {
    struct Case {
        uint32_t base_w, base_h, head_w, head_h;
        bool alpha;
        double threshold;
    };
    const Case cases[] = {
        {1, 1, 1, 1, false, 0.5},     {3, 2, 3, 2, true, 0.5},      {17, 9, 17, 9, false, 0.5},
        {64, 48, 64, 48, true, 0.5},  {61, 47, 61, 47, false, 0.3}, {40, 30, 47, 30, false, 0.5},
        {40, 30, 40, 37, true, 0.5},  {33, 41, 45, 29, false, 0.5}, {70, 70, 70, 70, true, 0.0},
        {70, 70, 70, 70, false, 1.0}, {5, 80, 5, 80, true, 0.5},    {80, 5, 77, 6, false, 0.7},
    };
    uint32_t seed = 11;
    for (const Case& c : cases) {
        CAPTURE(c.base_w);
        CAPTURE(c.head_w);
        CAPTURE(c.base_h);
        CAPTURE(c.head_h);
        CAPTURE(c.alpha);
        const Image base = test::screenshot_like(c.base_w, c.base_h, c.alpha, ++seed);
        Image head = test::mutated(base, ++seed);
        if (c.head_w != c.base_w || c.head_h != c.base_h) {
            head = test::mutated(test::screenshot_like(c.head_w, c.head_h, c.alpha, seed), seed);
            // Keep the overlap mostly similar so the anti-aliasing test has work to do.
            for (uint32_t y = 0; y < std::min(c.base_h, c.head_h); ++y) {
                for (uint32_t x = 0; x < std::min(c.base_w, c.head_w); ++x) {
                    if ((x * 7 + y * 3) % 5 != 0) {
                        set_pixel(head, x, y, test::pixel(base, x, y));
                    }
                }
            }
        }
        const test::ReferenceCounts expected = test::reference_compare(base, head, c.threshold);
        CompareOptions options;
        options.threshold = c.threshold;
        options.threads = 1;
        const DiffResult result = compare(base, head, options);
        CHECK(result.base_pass.differing_pixels == expected.base_pass);
        CHECK(result.color_pass.differing_pixels == expected.color_pass);
        if (result.chosen_pass != 0) {
            const Image mask = test::decode_with_spng(result.mask_png);
            const std::vector<uint8_t>& chosen =
                result.chosen_pass == 1 ? expected.base_mask : expected.color_mask;
            size_t mismatches = 0;
            for (uint32_t y = 0; y < mask.height; ++y) {
                for (uint32_t x = 0; x < mask.width; ++x) {
                    const bool red = test::pixel(mask, x, y) == kRed;
                    mismatches += red != (chosen[size_t{y} * mask.width + x] != 0) ? 1 : 0;
                }
            }
            CHECK(mismatches == 0);
        }
    }
}

TEST_CASE("compare: row bands on several threads give the same counts and mask") {
    // Large enough for four bands; differences everywhere, including at band edges.
    const Image base = test::screenshot_like(1024, 2100, true, 99);
    const Image head = test::mutated(base, 100);
    CompareOptions one = single_thread();
    CompareOptions four;
    four.threads = 4;
    const DiffResult serial = compare(base, head, one);
    const DiffResult banded = compare(base, head, four);
    CHECK(serial.color_pass.differing_pixels > 1000);
    CHECK(banded.base_pass.differing_pixels == serial.base_pass.differing_pixels);
    CHECK(banded.color_pass.differing_pixels == serial.color_pass.differing_pixels);
    CHECK(banded.mask_png == serial.mask_png);
}

TEST_CASE("compare: rejects inconsistent input") {
    Image broken = filled(4, 4, kWhite);
    broken.rgba.resize(10);
    CHECK_THROWS_AS(compare(broken, filled(4, 4, kWhite)), std::invalid_argument);
    CompareOptions bad;
    bad.threshold = 1.5;
    CHECK_THROWS_AS(compare(filled(2, 2, kWhite), filled(2, 2, kWhite), bad),
                    std::invalid_argument);
}

TEST_CASE("compare: fills the compare time") {
    const Image base = test::screenshot_like(300, 200, false, 5);
    const DiffResult result = compare(base, test::mutated(base, 6));
    CHECK(result.compare_ms > 0);
    CHECK(result.encode_ms > 0);
    CHECK(result.decode_ms == 0);
}

}  // namespace
}  // namespace loupe::imagediff
