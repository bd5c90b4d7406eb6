// compare() with ignore regions (masks drawn on a test): masked pixels count nowhere (score,
// mask, fingerprint), at the edges, overlapping, larger than the images, on images of different
// sizes and on a canvas scaled down to fit.

#include <doctest/doctest.h>

#include <loupe/imagediff/imagediff.hpp>

#include "test_images.hpp"

namespace loupe::imagediff {
namespace {

using test::filled;
using test::kBlack;
using test::kWhite;
using test::set_pixel;

CompareOptions masked(std::vector<IgnoreRegion> regions) {
    CompareOptions options;
    options.threads = 1;
    options.ignore_regions = std::move(regions);
    return options;
}

/// A white image with black blocks at [x, x + w) x [y, y + h) for each block.
Image with_blocks(uint32_t width, uint32_t height, const std::vector<IgnoreRegion>& blocks) {
    Image image = filled(width, height, kWhite);
    for (const auto& block : blocks) {
        for (uint32_t y = block.y; y < block.y + block.height; ++y) {
            for (uint32_t x = block.x; x < block.x + block.width; ++x) {
                set_pixel(image, x, y, kBlack);
            }
        }
    }
    return image;
}

TEST_CASE("ignore regions: a change wholly inside a mask makes no change at all") {
    const Image base = filled(40, 30, kWhite);
    const Image head = with_blocks(40, 30, {{10, 10, 5, 4}});
    REQUIRE(compare(base, head, masked({})).verdict == Verdict::changed);
    const DiffResult result = compare(base, head, masked({{8, 9, 10, 8}}));
    CHECK(result.base_pass.differing_pixels == 0);
    CHECK(result.color_pass.differing_pixels == 0);
    CHECK(result.score == 0);
    CHECK(result.verdict == Verdict::unchanged);
    CHECK(result.mask_png.empty());
    CHECK(result.fingerprint.empty());
}

TEST_CASE("ignore regions: the bounds are exact, x <= px < x + width") {
    const Image base = filled(40, 30, kWhite);
    const Image head = with_blocks(40, 30, {{10, 10, 5, 4}});  // 20 pixels
    // One column short on the right and one row short at the bottom: 4 + 5 - 1 pixels remain.
    const DiffResult result = compare(base, head, masked({{10, 10, 4, 3}}));
    CHECK(result.color_pass.differing_pixels == 8);
    // A mask beside the change hides nothing.
    CHECK(compare(base, head, masked({{15, 10, 5, 4}})).color_pass.differing_pixels == 20);
}

TEST_CASE("ignore regions: at the edges, larger than the images, and overlapping") {
    const Image base = filled(40, 30, kWhite);
    const Image head = with_blocks(40, 30, {{0, 0, 3, 3}, {37, 27, 3, 3}});  // two corners
    SUBCASE("masks on the corners, reaching past the image") {
        const DiffResult result = compare(base, head, masked({{0, 0, 3, 3}, {36, 26, 100, 100}}));
        CHECK(result.color_pass.differing_pixels == 0);
    }
    SUBCASE("a mask far larger than the image masks everything") {
        const DiffResult result =
            compare(base, head, masked({{0, 0, 4'000'000'000u, 4'000'000'000u}}));
        CHECK(result.color_pass.differing_pixels == 0);
    }
    SUBCASE("a mask wholly outside the image masks nothing") {
        CHECK(compare(base, head, masked({{100, 100, 5, 5}})).color_pass.differing_pixels == 18);
    }
    SUBCASE("overlapping masks count each pixel once, as unmasked ones do") {
        const DiffResult result = compare(base, head, masked({{0, 0, 2, 3}, {1, 0, 2, 2}}));
        // The first corner: 9 pixels, all masked but (2, 2); the second corner: 9.
        CHECK(result.color_pass.differing_pixels == 10);
    }
    SUBCASE("an empty mask masks nothing") {
        CHECK(
            compare(base, head, masked({{0, 0, 0, 3}, {0, 0, 3, 0}})).color_pass.differing_pixels ==
            18);
    }
}

TEST_CASE("ignore regions: images of different sizes, the padding masked too") {
    // A head 10 rows taller: its extra black rows would differ from the base's padding.
    Image head = filled(20, 20, kWhite);
    for (uint32_t y = 10; y < 20; ++y) {
        for (uint32_t x = 0; x < 20; ++x) {
            set_pixel(head, x, y, kBlack);
        }
    }
    const Image base = filled(20, 10, kWhite);
    CHECK(compare(base, head, masked({})).color_pass.differing_pixels == 200);
    CHECK(compare(base, head, masked({{0, 10, 20, 5}})).color_pass.differing_pixels == 100);
    CHECK(compare(base, head, masked({{0, 10, 20, 10}})).verdict == Verdict::unchanged);
}

TEST_CASE("ignore regions: the fingerprint of what is left is that of the unmasked part") {
    const Image base = filled(60, 40, kWhite);
    const Image clock = with_blocks(60, 40, {{5, 5, 6, 6}, {40, 20, 8, 8}});
    const Image no_clock = with_blocks(60, 40, {{40, 20, 8, 8}});
    const DiffResult masked_clock = compare(base, clock, masked({{0, 0, 20, 20}}));
    const DiffResult plain = compare(base, no_clock, masked({}));
    CHECK(masked_clock.color_pass.differing_pixels == plain.color_pass.differing_pixels);
    CHECK(masked_clock.fingerprint == plain.fingerprint);
    CHECK(masked_clock.score == plain.score);
}

TEST_CASE("ignore regions: on a canvas scaled down to fit, the mask scales with it") {
    const Image base = filled(200, 100, kWhite);
    const Image head = with_blocks(200, 100, {{100, 40, 20, 20}});
    CompareOptions options = masked({{100, 40, 20, 20}});
    options.max_canvas_pixels = 5000;  // 200 x 100 -> 100 x 50
    const DiffResult result = compare(base, head, options);
    CHECK(result.width == 100);
    CHECK(result.color_pass.differing_pixels == 0);
    options.ignore_regions.clear();
    CHECK(compare(base, head, options).color_pass.differing_pixels > 0);
}

}  // namespace
}  // namespace loupe::imagediff
