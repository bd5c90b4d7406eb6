// The anti-aliasing test against the literal odiff port at every pixel, including the canvas
// border, image edges inside the canvas and the padding.

#include "antialiasing.hpp"

#include <doctest/doctest.h>

#include "test_images.hpp"

namespace loupe::imagediff {
namespace {

TEST_CASE("anti-aliasing: agrees with odiff's test at every pixel") {
    struct Case {
        uint32_t base_w, base_h, head_w, head_h;
    };
    const Case cases[] = {{9, 9, 9, 9},     {23, 14, 23, 14}, {40, 40, 40, 40}, {20, 12, 26, 12},
                          {12, 20, 12, 25}, {15, 9, 10, 14},  {2, 2, 2, 2},     {1, 30, 1, 30},
                          {30, 1, 31, 2},   {3, 3, 9, 9}};
    uint32_t seed = 500;
    for (const Case& c : cases) {
        for (const bool alpha : {false, true}) {
            const Image base = test::screenshot_like(c.base_w, c.base_h, alpha, ++seed);
            // Same content where the two overlap, then mutated: slopes exist on both sides.
            Image head = test::screenshot_like(c.head_w, c.head_h, alpha, seed);
            head = test::mutated(head, ++seed);
            const uint32_t width = std::max(c.base_w, c.head_w);
            const uint32_t height = std::max(c.base_h, c.head_h);
            const PaddedView b(base, width, height);
            const PaddedView h(head, width, height);
            const std::vector<uint8_t> expected = test::reference_antialiasing(base, head);
            size_t mismatches = 0;
            size_t antialiased = 0;
            for (uint32_t y = 0; y < height; ++y) {
                for (uint32_t x = 0; x < width; ++x) {
                    const bool want = expected[size_t{y} * width + x] != 0;
                    mismatches += is_antialiased(x, y, b, h) != want ? 1 : 0;
                    antialiased += want ? 1 : 0;
                }
            }
            CAPTURE(c.base_w);
            CAPTURE(c.base_h);
            CAPTURE(c.head_w);
            CAPTURE(c.head_h);
            CAPTURE(alpha);
            CAPTURE(antialiased);
            CHECK(mismatches == 0);
        }
    }
}

TEST_CASE("anti-aliasing: a pixel on a slope between flat dark and bright areas") {
    Image image = test::filled(9, 9, test::kWhite);
    for (uint32_t y = 0; y < 9; ++y) {
        for (uint32_t x = 0; x < 4; ++x) {
            test::set_pixel(image, x, y, test::kBlack);
        }
        test::set_pixel(image, 4, y, test::grey(128));
    }
    const PaddedView view(image, 9, 9);
    CHECK(is_antialiased(4, 4, view, view));
    CHECK(is_antialiased(4, 0, view, view));        // on the canvas border
    CHECK_FALSE(is_antialiased(2, 4, view, view));  // flat black
    CHECK_FALSE(is_antialiased(6, 4, view, view));  // flat white
}

}  // namespace
}  // namespace loupe::imagediff
