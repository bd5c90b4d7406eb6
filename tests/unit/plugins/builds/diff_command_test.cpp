// `loupe diff` as a command-line tool: it reports what the engine computes, with odiff's exit
// codes, and runs without the server's database or data folder.
#include <doctest/doctest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "loupe/imagediff/imagediff.hpp"
#include "support/build_paths.hpp"
#include "support/server_process.hpp"
#include "support/test_database.hpp"

namespace {

namespace fs = std::filesystem;
namespace imagediff = loupe::imagediff;

imagediff::Image page_with_square(uint32_t square_x) {
    imagediff::Image image;
    image.width = 64;
    image.height = 300;
    image.rgba.assign(size_t{image.width} * image.height * 4, 255);  // opaque white
    for (uint32_t y = 100; y < 110; ++y) {
        for (uint32_t x = square_x; x < square_x + 10; ++x) {
            std::memset(image.rgba.data() + (size_t{y} * image.width + x) * 4, 0, 3);
        }
    }
    return image;
}

std::string write_png(const std::string& path, const imagediff::Image& image) {
    const auto bytes = imagediff::encode_png(image);
    std::ofstream(path, std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()),
               static_cast<std::streamsize>(bytes.size()));
    return path;
}

// A database the command must never reach: opening it would fail the command.
std::vector<std::string> diff_command(const loupe::test::TempDir& dir,
                                      std::vector<std::string> args) {
    std::vector<std::string> full{
        "--config", std::string(LOUPE_TEST_SOURCE_DIR) + "/etc/loupe.properties",
        "--set",    std::string("plugins.path=") + LOUPE_TEST_PLUGIN_DIR,
        "--set",    "data.dir=" + dir.path() + "/data",
        "--set",    "db.url=postgresql://loupe:none@127.0.0.1:1/unreachable",
        "diff"};
    full.insert(full.end(), args.begin(), args.end());
    return full;
}

nlohmann::json json_of(const std::string& out) {
    const auto start = out.find('{');
    REQUIRE(start != std::string::npos);
    return nlohmann::json::parse(out.substr(start, out.rfind('}') - start + 1));
}

}  // namespace

TEST_CASE("loupe diff: the engine's result and exit codes, without database or data folder") {
    loupe::test::TempDir dir;
    const auto base_image = page_with_square(10);
    const auto head_image = page_with_square(40);
    const auto base = write_png(dir.path() + "/base.png", base_image);
    const auto head = write_png(dir.path() + "/head.png", head_image);
    const auto expected = imagediff::compare(base_image, head_image);
    REQUIRE(expected.verdict == imagediff::Verdict::changed);

    std::string out;
    const auto mask = dir.path() + "/mask.png";
    CHECK(loupe::test::run_loupe(diff_command(dir, {base, head, "--json", "--out", mask}), out) ==
          1);
    INFO(out);
    const auto report = json_of(out);
    CHECK(report["verdict"] == "changed");
    CHECK(report["basePass"]["differingPixels"] == expected.base_pass.differing_pixels);
    CHECK(report["colorPass"]["differingPixels"] == expected.color_pass.differing_pixels);
    CHECK(report["fingerprint"] == expected.fingerprint);
    CHECK(report["mask"] == mask);
    std::ifstream mask_file(mask, std::ios::binary);
    const std::vector<uint8_t> mask_bytes{std::istreambuf_iterator<char>(mask_file), {}};
    CHECK(mask_bytes == expected.mask_png);

    CHECK(loupe::test::run_loupe(diff_command(dir, {base, base}), out) == 0);
    CHECK(out.rfind("unchanged", 0) == 0);
    CHECK(loupe::test::run_loupe(diff_command(dir, {base, dir.path() + "/missing.png"}), out) == 2);
    CHECK(out.find("cannot open") != std::string::npos);
    CHECK(loupe::test::run_loupe(diff_command(dir, {base}), out) == 2);

    CHECK_FALSE(fs::exists(dir.path() + "/data"));
}

TEST_CASE("loupe diff: the launcher runs it from its command module, without the configuration") {
    loupe::test::TempDir dir;
    const auto base = write_png(dir.path() + "/base.png", page_with_square(10));
    const auto head = write_png(dir.path() + "/head.png", page_with_square(30));
    // Configuration the whole program would have to read: with no builds plugin enabled it has
    // no `diff`. The command module reads none, so `loupe diff` still works.
    const std::map<std::string, std::string> no_builds{{"LOUPE_PLUGINS_ENABLED", "auth"}};
    std::string out;
    CHECK(loupe::test::run_loupe({"diff", base, head, "--json"}, out, no_builds) == 1);
    CHECK(json_of(out)["verdict"] == "changed");
    CHECK(loupe::test::run_loupe({"diff", base, base}, out, no_builds) == 0);
    CHECK(out.rfind("unchanged", 0) == 0);
    CHECK(loupe::test::run_loupe({"diff", base}, out, no_builds) == 2);
    CHECK(out.find("usage: loupe diff") != std::string::npos);
    // After a global option the whole program runs the command, and follows the configuration.
    CHECK(loupe::test::run_loupe({"--set", "plugins.enabled=auth", "diff", base, head}, out) == 2);
    CHECK(out.find("unknown command 'diff'") != std::string::npos);
}
