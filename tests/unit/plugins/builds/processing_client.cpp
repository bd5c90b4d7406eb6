#include "processing_client.hpp"

#include <doctest/doctest.h>
#include <soci/postgresql/soci-postgresql.h>
#include <soci/soci.h>
#include <soci/sqlite3/soci-sqlite3.h>

#include <chrono>
#include <thread>

#include "loupe/imagediff/imagediff.hpp"

namespace loupe::test {

namespace {

Blob blob_of(const imagediff::Image& image) {
    const auto png = imagediff::encode_png(image);
    return blob_with_bytes(std::string(png.begin(), png.end()));
}

void paint_block(imagediff::Image& image, const Paint& paint) {
    for (int y = paint.y; y < paint.y + paint.height; ++y) {
        for (int x = paint.x; x < paint.x + paint.width; ++x) {
            uint8_t* p = &image.rgba[(static_cast<std::size_t>(y) * image.width + x) * 4];
            p[0] = 255;
            p[1] = 0;
            p[2] = 255;
        }
    }
}

uint32_t seed_hash(const std::string& seed) {
    uint32_t state = 2166136261u;
    for (char c : seed) {
        state = (state ^ static_cast<uint8_t>(c)) * 16777619u;
    }
    return state;
}

}  // namespace

Blob gradient_png(const std::string& seed, int width, int height, std::optional<Paint> paint) {
    imagediff::Image image;
    image.width = static_cast<uint32_t>(width);
    image.height = static_cast<uint32_t>(height);
    image.rgba.resize(static_cast<std::size_t>(width) * height * 4);
    const uint32_t hash = seed_hash(seed);
    for (int y = 0; y < height; ++y) {
        for (int x = 0; x < width; ++x) {
            uint8_t* p = &image.rgba[(static_cast<std::size_t>(y) * width + x) * 4];
            p[0] = static_cast<uint8_t>(hash + x * 255 / width);
            p[1] = static_cast<uint8_t>((hash >> 8) + y * 255 / height);
            p[2] = static_cast<uint8_t>(hash >> 16);
            p[3] = 255;
        }
    }
    if (paint) {
        paint_block(image, *paint);
    }
    return blob_of(image);
}

Blob png_blob(const std::string& seed, std::optional<Paint> paint, bool nudge, int width,
              int height) {
    imagediff::Image image;
    image.width = static_cast<uint32_t>(width);
    image.height = static_cast<uint32_t>(height);
    image.rgba.resize(static_cast<std::size_t>(width) * height * 4);
    uint32_t state = seed_hash(seed);
    for (int y = 0; y < height; ++y) {
        for (int x = 0; x < width; ++x) {
            state = state * 1664525u + 1013904223u;
            uint8_t* p = &image.rgba[(static_cast<std::size_t>(y) * width + x) * 4];
            p[0] = static_cast<uint8_t>((state >> 24) ^ (x * 3));
            p[1] = static_cast<uint8_t>((state >> 16) + y * 5);
            p[2] = static_cast<uint8_t>(((x / 8 + y / 8) % 2) * 200 + (state >> 28));
            p[3] = 255;
        }
    }
    if (paint) {
        paint_block(image, *paint);
    }
    if (nudge) {
        image.rgba[0] = static_cast<uint8_t>(image.rgba[0] ^ 1);
    }
    return blob_of(image);
}

nlohmann::json push_shots(const TestServer& server, const std::vector<Shot>& shots,
                          const nlohmann::json& body) {
    nlohmann::json create = body;
    create["screenshotKeys"] = nlohmann::json::array();
    for (const auto& shot : shots) {
        create["screenshotKeys"].push_back(shot.blob.key);
    }
    auto created = create_build(server, create);
    REQUIRE_MESSAGE(created.status == 201, created.body);
    const auto response = created.json();
    for (const auto& target : response["screenshots"]) {
        for (const auto& shot : shots) {
            if (shot.blob.key == target["key"]) {
                REQUIRE(upload(target["putUrl"], shot.blob.bytes, shot.content_type) == 200);
                break;
            }
        }
    }
    nlohmann::json screenshots = nlohmann::json::array();
    for (const auto& shot : shots) {
        nlohmann::json item = shot.fields;
        item["key"] = shot.blob.key;
        item["name"] = shot.name;
        item["contentType"] = shot.content_type;
        screenshots.push_back(item);
    }
    auto updated = http_json(
        "PUT", server.base_url() + "/v2/builds/" + response["build"]["id"].get<std::string>(),
        {{"screenshots", screenshots}}, server.project_token());
    REQUIRE_MESSAGE(updated.status == 200, updated.body);
    return updated.json()["build"];
}

nlohmann::json get_build(const TestServer& server, int64_t number) {
    auto result = http_get(
        server.base_url() + "/v2/projects/default/default/builds/" + std::to_string(number),
        server.personal_token());
    REQUIRE_MESSAGE(result.status == 200, result.body);
    return result.json();
}

nlohmann::json wait_concluded(const TestServer& server, int64_t number) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    for (;;) {
        auto build = get_build(server, number);
        const auto status = build["status"].get<std::string>();
        if (status != "pending" && status != "progress") {
            return build;
        }
        if (std::chrono::steady_clock::now() > deadline) {
            FAIL("build " << number << " still " << status << "\n" << server.output());
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
}

nlohmann::json list_diffs(const TestServer& server, int64_t number, const std::string& query) {
    auto result = http_get(server.base_url() + "/v2/projects/default/default/builds/" +
                               std::to_string(number) + "/diffs" + query,
                           server.personal_token());
    REQUIRE_MESSAGE(result.status == 200, result.body);
    return result.json();
}

void wait_jobs_settled(const TestServer& server, const std::string& kind) {
    auto db = open_server_database(server);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    for (;;) {
        long long unsettled = 0;
        *db << "SELECT COUNT(*) FROM jobs WHERE kind = :kind AND status IN ('queued', 'running')",
            soci::use(kind), soci::into(unsettled);
        if (unsettled == 0) {
            return;
        }
        if (std::chrono::steady_clock::now() > deadline) {
            FAIL(unsettled << " job(s) of kind " << kind << " still unsettled\n"
                           << server.output());
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
}

std::string sha(char c) {
    return std::string(40, c);
}

nlohmann::json body(const std::string& commit, const std::string& branch, nlohmann::json extra) {
    nlohmann::json b = {{"commit", commit}, {"branch", branch}};
    b.update(extra);
    return b;
}

int64_t number_of(const nlohmann::json& build) {
    return build["number"].get<int64_t>();
}

ServerOptions with_reviews() {
    ServerOptions options;
    options.plugins = {"auth", "builds", "reviews"};
    return options;
}

}  // namespace loupe::test
