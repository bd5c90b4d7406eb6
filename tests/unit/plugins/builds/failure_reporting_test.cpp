// What the API says about files it could not read: a PNG whose header claims an impossible
// size, and a diff whose computation failed.
#include <Poco/Checksum.h>
#include <doctest/doctest.h>

#include <chrono>
#include <thread>

#include "processing_client.hpp"
#include "support/in_process_server.hpp"

using namespace loupe::test;
using nlohmann::json;

namespace {

void put_be32(std::string& bytes, std::size_t at, uint32_t value) {
    for (int i = 0; i < 4; ++i) {
        bytes[at + i] = static_cast<char>(value >> (24 - 8 * i));
    }
}

/// `png` with its IHDR width set to `width` and the chunk's CRC fixed up.
Blob with_width(const Blob& png, uint32_t width) {
    std::string bytes = png.bytes;
    put_be32(bytes, 16, width);
    Poco::Checksum crc(Poco::Checksum::TYPE_CRC32);
    crc.update(bytes.data() + 12, 17);
    put_be32(bytes, 29, crc.checksum());
    return blob_with_bytes(bytes);
}

/// `png` with bytes of its compressed data flipped: the header reads fine, decoding fails.
Blob corrupted(const Blob& png) {
    std::string bytes = png.bytes;
    for (std::size_t i = 60; i < bytes.size() - 20; i += 7) {
        bytes[i] = static_cast<char>(bytes[i] ^ 0x5a);
    }
    return blob_with_bytes(bytes);
}

const json* find_diff(const json& page, const std::string& name) {
    for (const auto& diff : page["results"]) {
        if (diff["name"] == name) {
            return &diff;
        }
    }
    return nullptr;
}

}  // namespace

TEST_CASE("failures: a PNG claiming a width past 2^31 - 1 is listed without a size") {
    InProcessServer server;
    const Blob huge = with_width(png_blob("huge"), 0xffffffffu);
    auto build =
        wait_concluded(server, push_shots(server, {{"huge", huge}, {"fine", png_blob("ok")}},
                                          {{"commit", sha('a')}, {"branch", "main"}})["number"]
                                   .get<int64_t>());
    const json page = list_diffs(server, build["number"].get<int64_t>());
    const json* listed = find_diff(page, "huge");
    REQUIRE(listed != nullptr);
    CHECK((*listed)["head"]["width"].is_null());
    CHECK((*listed)["head"]["height"].is_null());
    const json* fine = find_diff(page, "fine");
    REQUIRE(fine != nullptr);
    CHECK((*fine)["head"]["width"] == 64);
}

TEST_CASE("failures: the diff list says which diffs failed and why") {
    InProcessServer server;
    const json main = {{"commit", sha('a')}, {"branch", "main"}};
    wait_concluded(
        server,
        push_shots(server, {{"page", png_blob("page")}, {"other", png_blob("o")}}, main)["number"]
            .get<int64_t>());
    const json feature = {{"commit", sha('b')},
                          {"branch", "feature"},
                          {"referenceCommit", sha('a')},
                          {"parentCommits", {sha('a')}}};
    const int64_t number = push_shots(server,
                                      {{"page", corrupted(png_blob("page", Paint{4, 4, 10, 10}))},
                                       {"other", png_blob("o", Paint{4, 4, 10, 10})}},
                                      feature)["number"]
                               .get<int64_t>();
    const json build = wait_concluded(server, number);
    CHECK(build["status"] == "error");

    // The build reads `error` as soon as one diff failed; the other may still be computing.
    json page = list_diffs(server, number);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (find_diff(page, "other") != nullptr &&
           (*find_diff(page, "other"))["status"] == "pending" &&
           std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        page = list_diffs(server, number);
    }
    const json* failed = find_diff(page, "page");
    REQUIRE(failed != nullptr);
    CHECK((*failed)["status"] == "failure");
    REQUIRE((*failed)["error"].is_string());
    CHECK((*failed)["error"].get<std::string>().starts_with("Head image: "));
    CHECK((*failed)["score"].is_null());
    // The failed diff comes first in review order; the others read as usual, without an error.
    CHECK(page["results"][0]["name"] == "page");
    const json* changed = find_diff(page, "other");
    REQUIRE(changed != nullptr);
    CHECK((*changed)["status"] == "changed");
    CHECK((*changed)["error"].is_null());
}
