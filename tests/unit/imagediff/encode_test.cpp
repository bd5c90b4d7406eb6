// encode_png and the 1-bit mask encoder produce PNGs libspng reads back exactly.

#include <doctest/doctest.h>

#include <loupe/imagediff/imagediff.hpp>

#include "png_encode.hpp"
#include "test_images.hpp"

namespace loupe::imagediff {
namespace {

TEST_CASE("encode_png: round trip through libspng and through decode()") {
    for (const auto& size : {std::pair{1u, 1u}, std::pair{7u, 3u}, std::pair{300u, 200u}}) {
        const Image image = test::screenshot_like(size.first, size.second, true, size.first);
        const std::vector<uint8_t> png = encode_png(image);
        const Image back = test::decode_with_spng(png);
        CHECK(back.width == image.width);
        CHECK(back.height == image.height);
        CHECK(back.rgba == image.rgba);
        Image decoded;
        decode(png, decoded);
        CHECK(decoded.rgba == image.rgba);
    }
}

TEST_CASE("encode_png: refuses an inconsistent image") {
    Image image = test::filled(4, 4, test::kWhite);
    image.rgba.pop_back();
    CHECK_THROWS_AS(encode_png(image), std::invalid_argument);
    CHECK_THROWS_AS(encode_png(Image{}), std::invalid_argument);
}

TEST_CASE("mask PNG: 1-bit palette decoding to red on transparent") {
    const uint32_t width = 19, height = 5;
    const size_t row_bytes = png::mask_row_bytes(width);
    CHECK(row_bytes == 4);
    std::vector<uint8_t> scanlines(row_bytes * height, 0);
    const auto mark = [&](uint32_t x, uint32_t y) {
        scanlines[y * row_bytes + 1 + x / 8] |= static_cast<uint8_t>(0x80 >> (x % 8));
    };
    mark(0, 0);
    mark(7, 1);
    mark(8, 1);
    mark(18, 4);
    const Image mask = test::decode_with_spng(png::encode_mask(scanlines, width, height));
    REQUIRE(mask.width == width);
    REQUIRE(mask.height == height);
    for (uint32_t y = 0; y < height; ++y) {
        for (uint32_t x = 0; x < width; ++x) {
            const bool on =
                (x == 0 && y == 0) || (y == 1 && (x == 7 || x == 8)) || (x == 18 && y == 4);
            CHECK(test::pixel(mask, x, y) == (on ? test::kRed : test::kTransparent));
        }
    }
    CHECK_THROWS_AS(png::encode_mask(scanlines, width, height + 1), std::invalid_argument);
}

}  // namespace
}  // namespace loupe::imagediff
