// Differ: identical inputs skip decoding, buffers are reused, errors name the side.

#include <doctest/doctest.h>
#include <turbojpeg.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <loupe/imagediff/imagediff.hpp>
#include <string>
#include <system_error>

#include "test_images.hpp"

namespace loupe::imagediff {
namespace {

std::vector<uint8_t> png_of(const Image& image) {
    return encode_png(image);
}

TEST_CASE("Differ: identical bytes are not decoded") {
    const std::vector<uint8_t> png = png_of(test::screenshot_like(300, 120, false, 1));
    Differ differ;
    const DiffResult result = differ.diff_bytes(png, png);
    CHECK(result.width == 300);
    CHECK(result.height == 120);
    CHECK(result.base_width == 300);
    CHECK(result.head_height == 120);
    CHECK(result.score == 0);
    CHECK(result.verdict == Verdict::unchanged);
    CHECK(result.compare_ms == 0);
    CHECK(result.base_pass.threshold == doctest::Approx(0.15));

    SUBCASE("identical garbage is still an error") {
        const std::vector<uint8_t> garbage(64, 7);
        CHECK_THROWS_AS(differ.diff_bytes(garbage, garbage), DecodeError);
    }
    SUBCASE("identical files over the limit are refused") {
        DecodeOptions limit;
        limit.max_pixels = 1000;
        CHECK_THROWS_AS(differ.diff_bytes(png, png, {}, limit), DecodeError);
    }
}

TEST_CASE("Differ: same result as decode + compare, across calls of different sizes") {
    Differ differ;
    for (const auto& size : {std::pair{200u, 150u}, std::pair{64u, 300u}, std::pair{200u, 150u}}) {
        const Image base = test::screenshot_like(size.first, size.second, true, size.second);
        const Image head = test::mutated(base, size.first);
        const std::vector<uint8_t> base_png = png_of(base);
        const std::vector<uint8_t> head_png = png_of(head);
        const DiffResult expected = compare(base, head);
        const DiffResult result = differ.diff_bytes(base_png, head_png);
        CHECK(result.width == expected.width);
        CHECK(result.base_pass.differing_pixels == expected.base_pass.differing_pixels);
        CHECK(result.color_pass.differing_pixels == expected.color_pass.differing_pixels);
        CHECK(result.score == expected.score);
        CHECK(result.mask_png == expected.mask_png);
        CHECK(result.decode_ms > 0);
        CHECK(result.compare_ms > 0);
    }
}

TEST_CASE("Differ: PNG against JPEG of different sizes") {
    const Image base = test::screenshot_like(120, 80, false, 3);
    const Image head = test::screenshot_like(130, 70, false, 4);
    Differ differ;
    const DiffResult result =
        differ.diff_bytes(png_of(base), test::encode_jpeg(head, 90, TJSAMP_444));
    CHECK(result.width == 130);
    CHECK(result.height == 80);
    CHECK(result.base_width == 120);
    CHECK(result.head_width == 130);
    CHECK(result.verdict == Verdict::changed);
}

TEST_CASE("Differ: errors say which image is broken") {
    const std::vector<uint8_t> good = png_of(test::screenshot_like(30, 30, false, 5));
    const std::vector<uint8_t> bad(100, 1);
    Differ differ;
    try {
        differ.diff_bytes(good, bad);
        FAIL("no error");
    } catch (const DecodeError& e) {
        CHECK(std::string(e.what()).rfind("Head image: ", 0) == 0);
    }
    try {
        differ.diff_bytes(bad, good);
        FAIL("no error");
    } catch (const DecodeError& e) {
        CHECK(std::string(e.what()).rfind("Base image: ", 0) == 0);
    }
    // The Differ is still usable afterwards.
    CHECK(differ.diff_bytes(good, good).verdict == Verdict::unchanged);
}

TEST_CASE("Differ: scales a padded canvas over the canvas limit down") {
    // 100 x 10 and 10 x 100: each 1000 px, under the decode limit, but the canvas is 100 x 100.
    const std::vector<uint8_t> wide = png_of(test::filled(100, 10, test::kWhite));
    const std::vector<uint8_t> tall = png_of(test::filled(10, 100, test::kWhite));
    DecodeOptions limit;
    limit.max_pixels = 5000;
    CompareOptions options;
    options.max_canvas_pixels = 5000;
    Differ differ;
    const DiffResult result = differ.diff_bytes(wide, tall, options, limit);
    CHECK(result.width == 70);
    CHECK(result.height == 70);
    CHECK(result.base_width == 100);
    CHECK(result.head_height == 100);
}

TEST_CASE("Differ: files") {
    const std::filesystem::path dir = std::filesystem::temp_directory_path();
    const std::filesystem::path base_path = dir / "loupe-imagediff-test-base.png";
    const std::filesystem::path head_path = dir / "loupe-imagediff-test-head.png";
    const Image base = test::screenshot_like(80, 60, false, 9);
    for (const auto& [path, image] :
         {std::pair{base_path, base}, std::pair{head_path, test::mutated(base, 10)}}) {
        const std::vector<uint8_t> png = png_of(image);
        std::ofstream(path, std::ios::binary)
            .write(reinterpret_cast<const char*>(png.data()),
                   static_cast<std::streamsize>(png.size()));
    }
    Differ differ;
    const DiffResult result = differ.diff_files(base_path.string(), head_path.string());
    CHECK(result.width == 80);
    CHECK(result.color_pass.differing_pixels > 0);
    CHECK_THROWS_AS(differ.diff_files(base_path.string(), (dir / "no-such-file.png").string()),
                    std::system_error);
    std::filesystem::remove(base_path);
    std::filesystem::remove(head_path);
}

}  // namespace
}  // namespace loupe::imagediff
