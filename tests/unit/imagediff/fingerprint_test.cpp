// mask_fingerprint(): its clean rules (imagediff.hpp), checked against hand-computed grids
// and a deliberately naive transcription of the rules, and the fingerprint compare() attaches.

#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <loupe/imagediff/imagediff.hpp>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "test_images.hpp"

namespace loupe::imagediff {
namespace {

using test::filled;
using test::kRed;
using test::kTransparent;
using test::Rgba;
using test::set_pixel;

// The fingerprint of a grid given by its non-zero cells (gy, gx, level), packed and hashed
// here, independently of the library.
std::string fingerprint_of_cells(const std::vector<std::tuple<int, int, int>>& cells) {
    std::array<uint8_t, 64> packed{};
    for (const auto& [gy, gx, level] : cells) {
        const int i = gy * 16 + gx;
        packed[i / 4] |= static_cast<uint8_t>(level << (2 * (i % 4)));
    }
    uint64_t hash = 0xcbf29ce484222325;
    for (const uint8_t byte : packed) {
        hash = (hash ^ byte) * 0x100000001b3;
    }
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(hash));
    return std::string("v1:g16:d1:t0.002,0.02,0.08:") + hex;
}

// The rules as written, pixel by pixel, with a real padded square and double densities.
std::string naive_fingerprint(const Image& image) {
    const int width = static_cast<int>(image.width);
    const int height = static_cast<int>(image.height);
    std::vector<int> on(size_t(width) * height);
    for (int y = 0; y < height; ++y) {
        for (int x = 0; x < width; ++x) {
            const Rgba p = test::pixel(image, x, y);
            on[size_t(y) * width + x] = p.r >= 200 && p.g <= 90 && p.b <= 90 && p.a >= 16;
        }
    }
    std::vector<int> dilated(on.size());
    int x0 = width, y0 = height, x1 = -1, y1 = -1;
    for (int y = 0; y < height; ++y) {
        for (int x = 0; x < width; ++x) {
            for (int dy = -1; dy <= 1; ++dy) {
                for (int dx = -1; dx <= 1; ++dx) {
                    const int nx = x + dx, ny = y + dy;
                    if (nx >= 0 && ny >= 0 && nx < width && ny < height &&
                        on[size_t(ny) * width + nx]) {
                        dilated[size_t(y) * width + x] = 1;
                    }
                }
            }
            if (dilated[size_t(y) * width + x]) {
                x0 = std::min(x0, x);
                y0 = std::min(y0, y);
                x1 = std::max(x1, x);
                y1 = std::max(y1, y);
            }
        }
    }
    if (x1 < 0) {
        return "empty";
    }
    const int crop_width = x1 - x0 + 1, crop_height = y1 - y0 + 1;
    const int side = std::max(crop_width, crop_height);
    const int offset_x = (side - crop_width) / 2, offset_y = (side - crop_height) / 2;
    std::vector<int> square(size_t(side) * side);
    for (int y = 0; y < crop_height; ++y) {
        for (int x = 0; x < crop_width; ++x) {
            square[size_t(y + offset_y) * side + x + offset_x] =
                dilated[size_t(y + y0) * width + x + x0];
        }
    }
    std::vector<std::tuple<int, int, int>> cells;
    for (int gy = 0; gy < 16; ++gy) {
        for (int gx = 0; gx < 16; ++gx) {
            const int ya = gy * side / 16, yb = (gy + 1) * side / 16;
            const int xa = gx * side / 16, xb = (gx + 1) * side / 16;
            int count = 0;
            for (int y = ya; y < yb; ++y) {
                for (int x = xa; x < xb; ++x) {
                    count += square[size_t(y) * side + x];
                }
            }
            const double density = double(count) / std::max(1, (xb - xa) * (yb - ya));
            const int level = density < 0.002 ? 0 : density < 0.02 ? 1 : density < 0.08 ? 2 : 3;
            cells.emplace_back(gy, gx, level);
        }
    }
    return fingerprint_of_cells(cells);
}

// One pixel dilates to a 3x3 square: side 3, cells 5, 10 and 15 one pixel each (density 1).
const std::string kOnePixel = "v1:g16:d1:t0.002,0.02,0.08:ed7f845923516ed1";

TEST_CASE("mask_fingerprint: no red pixel is \"empty\"") {
    CHECK(mask_fingerprint(filled(40, 30, kTransparent)) == "empty");
    CHECK(mask_fingerprint(Image{}) == "empty");
    Image not_red = filled(40, 30, test::kWhite);
    set_pixel(not_red, 3, 3, Rgba{255, 91, 0, 255});
    set_pixel(not_red, 5, 3, Rgba{255, 0, 91, 255});
    set_pixel(not_red, 7, 3, test::kBlack);
    CHECK(mask_fingerprint(not_red) == "empty");
}

TEST_CASE("mask_fingerprint: one pixel, by hand") {
    std::vector<std::tuple<int, int, int>> cells;
    for (const int gy : {5, 10, 15}) {
        for (const int gx : {5, 10, 15}) {
            cells.emplace_back(gy, gx, 3);
        }
    }
    CHECK(fingerprint_of_cells(cells) == kOnePixel);

    Image mask = filled(20, 20, kTransparent);
    set_pixel(mask, 5, 5, kRed);
    CHECK(mask_fingerprint(mask) == kOnePixel);
    CHECK(naive_fingerprint(mask) == kOnePixel);
}

TEST_CASE("mask_fingerprint: the red test's edges") {
    const auto single = [](Rgba colour) {
        Image mask = filled(20, 20, kTransparent);
        set_pixel(mask, 9, 12, colour);
        return mask_fingerprint(mask);
    };
    CHECK(single(Rgba{200, 90, 90, 16}) == kOnePixel);
    CHECK(single(Rgba{199, 0, 0, 255}) == "empty");
    CHECK(single(Rgba{255, 91, 0, 255}) == "empty");
    CHECK(single(Rgba{255, 0, 91, 255}) == "empty");
    CHECK(single(Rgba{255, 0, 0, 15}) == "empty");
}

TEST_CASE("mask_fingerprint: pixels that are not red are ignored") {
    Image mask = filled(60, 50, kTransparent);
    set_pixel(mask, 30, 20, kRed);
    for (uint32_t x = 0; x < 60; x += 7) {
        set_pixel(mask, x, 2, test::kWhite);
        set_pixel(mask, x, 40, test::kBlack);
        set_pixel(mask, x, 45, Rgba{255, 0, 0, 15});
        set_pixel(mask, x, 47, Rgba{0, 0, 255, 255});
    }
    CHECK(mask_fingerprint(mask) == kOnePixel);
}

TEST_CASE("mask_fingerprint: the content is centred with floored offsets") {
    // Pixels (5,5) and (5,8) dilate to a full 3 x 6 box: side 6, horizontal offset (6-3)/2 = 1,
    // so square columns 1-3, which fall in cells 5, 7 and 10; rows 0-5 in cells 2, 5, 7, 10, 13
    // and 15. (A rounded-up offset would give cells 7, 10 and 13.)
    Image mask = filled(20, 20, kTransparent);
    set_pixel(mask, 5, 5, kRed);
    set_pixel(mask, 5, 8, kRed);
    std::vector<std::tuple<int, int, int>> cells;
    for (const int gy : {2, 5, 7, 10, 13, 15}) {
        for (const int gx : {5, 7, 10}) {
            cells.emplace_back(gy, gx, 3);
        }
    }
    CHECK(fingerprint_of_cells(cells) == "v1:g16:d1:t0.002,0.02,0.08:4ac7963ff87c3a65");
    CHECK(mask_fingerprint(mask) == fingerprint_of_cells(cells));

    SUBCASE("the same on its side") {
        Image wide = filled(20, 20, kTransparent);
        set_pixel(wide, 5, 5, kRed);
        set_pixel(wide, 8, 5, kRed);
        std::vector<std::tuple<int, int, int>> transposed;
        for (const auto& [gy, gx, level] : cells) {
            transposed.emplace_back(gx, gy, level);
        }
        CHECK(mask_fingerprint(wide) == fingerprint_of_cells(transposed));
    }
}

TEST_CASE("mask_fingerprint: density levels, exact at a threshold") {
    // Pixels (1,1) and (158,158) make the dilated box 160 x 160: cells of 10 x 10 = 100 px.
    // The 3x3 square around (60,59) spans columns 59-61 and rows 58-60: 2 px in cell (5,5)
    // (density 0.02 exactly: level 2), 4 in (5,6), 1 in (6,5) and 2 in (6,6).
    Image mask = filled(170, 165, kTransparent);
    set_pixel(mask, 1, 1, kRed);
    set_pixel(mask, 158, 158, kRed);
    set_pixel(mask, 60, 59, kRed);
    const std::string expected =
        fingerprint_of_cells({{0, 0, 3}, {15, 15, 3}, {5, 5, 2}, {5, 6, 2}, {6, 5, 1}, {6, 6, 2}});
    CHECK(mask_fingerprint(mask) == expected);
    CHECK(naive_fingerprint(mask) == expected);
}

Image random_mask(uint32_t width, uint32_t height, uint32_t dots, std::mt19937& random) {
    Image mask = filled(width, height, kTransparent);
    for (uint32_t i = 0; i < dots; ++i) {
        const uint32_t x = random() % width, y = random() % height;
        const uint32_t w = 1 + random() % 5, h = 1 + random() % 4;
        for (uint32_t dy = 0; dy < h && y + dy < height; ++dy) {
            for (uint32_t dx = 0; dx < w && x + dx < width; ++dx) {
                set_pixel(mask, x + dx, y + dy, kRed);
            }
        }
    }
    return mask;
}

TEST_CASE("mask_fingerprint: agrees with a naive transcription of the rules") {
    std::mt19937 random(7);
    const std::vector<std::tuple<uint32_t, uint32_t, uint32_t>> shapes = {
        {1, 1, 1},    {3, 2, 1},    {17, 5, 2},     {64, 64, 3},     {65, 63, 4},
        {130, 40, 6}, {40, 300, 9}, {400, 300, 30}, {257, 199, 200}, {500, 120, 2}};
    for (const auto& [width, height, dots] : shapes) {
        for (int round = 0; round < 3; ++round) {
            const Image mask = random_mask(width, height, dots, random);
            CAPTURE(width);
            CAPTURE(height);
            CAPTURE(round);
            CHECK(mask_fingerprint(mask) == naive_fingerprint(mask));
        }
    }
}

TEST_CASE("mask_fingerprint: the same shape at another position gives the same fingerprint") {
    std::mt19937 random(11);
    const Image shape = random_mask(90, 45, 25, random);
    const auto placed = [&](uint32_t left, uint32_t top) {
        Image mask = filled(400, 300, kTransparent);
        for (uint32_t y = 0; y < shape.height; ++y) {
            for (uint32_t x = 0; x < shape.width; ++x) {
                set_pixel(mask, left + x, top + y, test::pixel(shape, x, y));
            }
        }
        return mask_fingerprint(mask);
    };
    const std::string at_origin_side = placed(10, 20);
    CHECK(at_origin_side != "empty");
    CHECK(placed(250, 3) == at_origin_side);
    CHECK(placed(301, 250) == at_origin_side);
    CHECK(mask_fingerprint(random_mask(90, 45, 25, random)) != at_origin_side);
}

TEST_CASE("mask_fingerprint: rejects a buffer smaller than the image") {
    Image broken = filled(10, 10, kRed);
    broken.rgba.resize(10);
    CHECK_THROWS_AS(mask_fingerprint(broken), std::invalid_argument);
}

TEST_CASE("compare: the diff's fingerprint is the fingerprint of its mask") {
    const Image base = test::screenshot_like(240, 180, true, 3);
    const Image head = test::mutated(base, 4);
    CompareOptions options;
    options.threads = 2;
    const DiffResult result = compare(base, head, options);
    REQUIRE(result.verdict == Verdict::changed);
    REQUIRE_FALSE(result.mask_png.empty());
    Image mask;
    decode(result.mask_png, mask);
    CHECK(result.fingerprint.rfind("v1:g16:d1:t0.002,0.02,0.08:", 0) == 0);
    CHECK(result.fingerprint == mask_fingerprint(mask));

    SUBCASE("the Differ's too") {
        Differ differ;
        const DiffResult from_bytes = differ.diff_bytes(encode_png(base), encode_png(head));
        CHECK(from_bytes.fingerprint == result.fingerprint);
    }
    SUBCASE("no mask, no fingerprint") {
        options.want_mask = false;
        CHECK(compare(base, head, options).fingerprint.empty());
        CHECK(compare(base, base).fingerprint.empty());
    }
}

TEST_CASE("compare: a change's fingerprint does not depend on where it is") {
    const Image base = filled(300, 400, test::kWhite);
    const auto changed_at = [&](uint32_t left, uint32_t top) {
        Image head = base;
        for (uint32_t y = 0; y < 12; ++y) {
            for (uint32_t x = 0; x < 30; ++x) {
                set_pixel(head, left + x, top + y, test::kBlack);
            }
        }
        return compare(base, head).fingerprint;
    };
    CHECK(changed_at(20, 30) == changed_at(200, 350));
}

}  // namespace
}  // namespace loupe::imagediff
