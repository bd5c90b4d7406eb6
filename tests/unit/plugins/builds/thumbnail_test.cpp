// Thumbnails of screenshots: scaled by area averaging, tall pages cropped to their top,
// transparency on white, JPEG out.
#include <doctest/doctest.h>

#include "loupe/imagediff/imagediff.hpp"
#include "thumbnails/thumbnail_image.hpp"

using loupe::imagediff::Image;

namespace {

Image solid(uint32_t width, uint32_t height, uint8_t r, uint8_t g, uint8_t b, uint8_t a = 255) {
    Image image;
    image.width = width;
    image.height = height;
    image.rgba.resize(std::size_t{width} * height * 4);
    for (std::size_t i = 0; i < image.rgba.size(); i += 4) {
        image.rgba[i] = r;
        image.rgba[i + 1] = g;
        image.rgba[i + 2] = b;
        image.rgba[i + 3] = a;
    }
    return image;
}

Image decode(const std::vector<uint8_t>& bytes) {
    Image image;
    loupe::imagediff::decode(bytes, image);
    return image;
}

const uint8_t* pixel(const Image& image, uint32_t x, uint32_t y) {
    return image.rgba.data() + (std::size_t{y} * image.width + x) * 4;
}

}  // namespace

TEST_CASE("a wide screenshot shrinks to the thumbnail width, keeping its aspect ratio") {
    const auto png = loupe::imagediff::encode_png(solid(1280, 720, 30, 120, 200));
    const auto jpeg = loupe::builds::make_thumbnail(png, {240, 480});
    CHECK(loupe::imagediff::sniff_format(jpeg) == loupe::imagediff::Format::jpeg);
    const Image thumbnail = decode(jpeg);
    CHECK(thumbnail.width == 240);
    CHECK(thumbnail.height == 135);
    const uint8_t* centre = pixel(thumbnail, 120, 67);
    CHECK(std::abs(centre[0] - 30) <= 3);
    CHECK(std::abs(centre[1] - 120) <= 3);
    CHECK(std::abs(centre[2] - 200) <= 3);
}

TEST_CASE("a tall page keeps its top and a small one is not enlarged") {
    Image page = solid(1000, 8000, 255, 255, 255);
    // A black band across the top 100 rows: on the thumbnail (scale 0.24), the top 24 rows.
    for (uint32_t y = 0; y < 100; ++y) {
        for (uint32_t x = 0; x < 1000; ++x) {
            uint8_t* p = page.rgba.data() + (std::size_t{y} * 1000 + x) * 4;
            p[0] = p[1] = p[2] = 0;
        }
    }
    const Image tall =
        decode(loupe::builds::make_thumbnail(loupe::imagediff::encode_png(page), {240, 480}));
    CHECK(tall.width == 240);
    CHECK(tall.height == 480);
    CHECK(pixel(tall, 120, 10)[0] < 10);
    CHECK(pixel(tall, 120, 200)[0] > 245);

    const Image small = decode(loupe::builds::make_thumbnail(
        loupe::imagediff::encode_png(solid(100, 60, 10, 10, 10)), {240, 480}));
    CHECK(small.width == 100);
    CHECK(small.height == 60);
}

TEST_CASE("averaging keeps a one-pixel line visible and transparency turns white") {
    Image lines = solid(960, 100, 255, 255, 255);
    for (uint32_t y = 0; y < 100; ++y) {
        uint8_t* p = lines.rgba.data() + (std::size_t{y} * 960 + 500) * 4;
        p[0] = p[1] = p[2] = 0;
    }
    const Image thumbnail =
        decode(loupe::builds::make_thumbnail(loupe::imagediff::encode_png(lines), {240, 480}));
    // One black column of four averaged into one pixel: a quarter dark, not dropped.
    CHECK(pixel(thumbnail, 125, 12)[0] < 230);

    const Image clear = decode(loupe::builds::make_thumbnail(
        loupe::imagediff::encode_png(solid(200, 200, 0, 0, 0, 0)), {240, 480}));
    CHECK(pixel(clear, 100, 100)[0] > 250);
}

TEST_CASE("bytes that are no image are refused") {
    const std::vector<uint8_t> text{'h', 'e', 'l', 'l', 'o'};
    CHECK_THROWS_AS(loupe::builds::make_thumbnail(text, {240, 480}), loupe::imagediff::DecodeError);
}

TEST_CASE("the service gives a thumbnail, or why the bytes are no image, as values") {
    const loupe::builds::ScreenshotThumbnailsImpl service;
    const auto made =
        service.render(loupe::imagediff::encode_png(solid(10, 10, 0, 0, 255)), {240, 480});
    CHECK(made.ok());
    CHECK(decode(made.jpeg).width == 10);
    const std::vector<uint8_t> text{'n', 'o', 't'};
    const auto refused = service.render(text, {240, 480});
    CHECK_FALSE(refused.ok());
    CHECK(refused.jpeg.empty());
    CHECK_FALSE(refused.error.empty());
}
