// read_image_size(): dimensions from a file's first bytes, checked against what decode() says.

#include <doctest/doctest.h>
#include <turbojpeg.h>

#include <loupe/imagediff/imagediff.hpp>

#include "test_images.hpp"

namespace loupe::imagediff {
namespace {

std::optional<ImageSize> size_of(const std::vector<uint8_t>& bytes, std::size_t prefix) {
    return read_image_size(std::span<const uint8_t>(bytes.data(), std::min(prefix, bytes.size())));
}

// An APP1 segment of `length` bytes (a stand-in for EXIF) inserted after the JPEG's SOI.
std::vector<uint8_t> with_app1(const std::vector<uint8_t>& jpeg, std::size_t length) {
    std::vector<uint8_t> out(jpeg.begin(), jpeg.begin() + 2);
    out.insert(out.end(), {0xff, 0xe1, static_cast<uint8_t>((length + 2) >> 8),
                           static_cast<uint8_t>((length + 2) & 0xff)});
    out.insert(out.end(), length, 0x45);
    out.insert(out.end(), jpeg.begin() + 2, jpeg.end());
    return out;
}

}  // namespace

TEST_CASE("image size: PNG from its IHDR, the same as decode gives") {
    const auto image = test::screenshot_like(317, 1203, true, 7);
    const auto png = encode_png(image);
    auto size = size_of(png, 33);  // signature + IHDR chunk
    REQUIRE(size);
    CHECK(size->width == 317);
    CHECK(size->height == 1203);
    CHECK_FALSE(size_of(png, 32));  // IHDR cut before its CRC

    auto corrupted = png;
    corrupted[20] ^= 1;  // height byte: the CRC no longer matches
    CHECK_FALSE(size_of(corrupted, corrupted.size()));
}

TEST_CASE("image size: a PNG claiming more than 2^31 - 1 pixels a side has no size") {
    // The PNG specification bounds both dimensions to 2^31 - 1; larger ones are not a size.
    const auto png = encode_png(test::screenshot_like(8, 8, true, 1));
    for (const auto& [width, height] :
         {std::pair<uint32_t, uint32_t>{0xffffffffu, 8}, {8, 0xffffffffu}, {0x80000000u, 1}}) {
        CAPTURE(width);
        CAPTURE(height);
        CHECK_FALSE(size_of(test::with_dimensions(png, width, height), 33));
    }
    const auto largest = size_of(test::with_dimensions(png, 0x7fffffffu, 1), 33);
    REQUIRE(largest);
    CHECK(largest->width == 0x7fffffffu);
}

TEST_CASE("image size: JPEG from its frame header, after segments that precede it") {
    const auto image = test::screenshot_like(640, 481, false, 3);
    const auto jpeg = test::encode_jpeg(image, 85, TJSAMP_420);
    auto size = size_of(jpeg, jpeg.size());
    REQUIRE(size);
    CHECK(size->width == 640);
    CHECK(size->height == 481);

    const auto exif = with_app1(jpeg, 60000);
    size = size_of(exif, image_size_prefix_bytes);
    REQUIRE(size);
    CHECK(size->width == 640);
    CHECK(size->height == 481);
    CHECK_FALSE(size_of(exif, 30000));  // the frame header is past the prefix

    Image decoded;
    decode(exif, decoded);
    CHECK(decoded.width == 640);
    CHECK(decoded.height == 481);
}

TEST_CASE("image size: not an image, or no header") {
    const std::vector<uint8_t> text = {'h', 'e', 'l', 'l', 'o', ' ', 'w', 'o', 'r', 'l', 'd'};
    CHECK_FALSE(size_of(text, text.size()));
    CHECK_FALSE(read_image_size({}));
    const std::vector<uint8_t> bare_jpeg = {0xff, 0xd8, 0xff, 0xd9};  // SOI, EOI
    CHECK_FALSE(size_of(bare_jpeg, bare_jpeg.size()));
    const std::vector<uint8_t> bad_segment = {0xff, 0xd8, 0xff, 0xe0, 0x00, 0x01, 0x00};
    CHECK_FALSE(size_of(bad_segment, bad_segment.size()));
}

}  // namespace loupe::imagediff
