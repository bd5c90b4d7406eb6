// What a project may upload, on a real server: only files it holds may be named by its builds
// (a file another project stored must be uploaded again, so POST /builds tells nothing about
// other projects' files), within its quotas on stored bytes and screenshots per build.
#include <doctest/doctest.h>

#include <set>
#include <thread>

#include "builds_client.hpp"
#include "support/admin_cli.hpp"
#include "support/in_process_server.hpp"

using namespace loupe::test;
using nlohmann::json;

namespace {

json keys_body(const std::vector<Blob>& blobs, const std::string& branch = "main") {
    json keys = json::array();
    for (const auto& blob : blobs) {
        keys.push_back(blob.key);
    }
    return {{"commit", commit_a}, {"branch", branch}, {"screenshotKeys", keys}};
}

json screenshots_of(const std::vector<Blob>& blobs) {
    json screenshots = json::array();
    for (std::size_t i = 0; i < blobs.size(); ++i) {
        screenshots.push_back({{"key", blobs[i].key}, {"name", "shot-" + std::to_string(i)}});
    }
    return {{"screenshots", screenshots}};
}

std::set<std::string> target_keys(const json& created) {
    std::set<std::string> keys;
    for (const auto& target : created["screenshots"]) {
        keys.insert(target["key"].get<std::string>());
    }
    return keys;
}

std::string other_project_token(const TestServer& server, const std::string& name) {
    const auto token = find_token(
        admin(server, {"project", "create", "--account", "default", "--name", name}), "argos_");
    REQUIRE_FALSE(token.empty());
    return token;
}

}  // namespace

TEST_CASE("a build names only files its project uploaded: another project's copy is no proof") {
    ServerOptions options;
    // Uploads prove a claim only when written after it, with 50 ms allowed for the file
    // system's coarse modification times (a file written just after the claim may be dated a
    // few milliseconds before it); `shared` is stored 300 ms before the other project's claim.
    options.settings = {{"plugins.builds.upload_clock_skew_ms", "50"}};
    InProcessServer server(options);
    const Blob shared = make_blob("shared");
    const Blob fresh = make_blob("fresh");
    push_build(server, {shared});  // project default/default stores `shared`
    std::this_thread::sleep_for(std::chrono::milliseconds(300));

    const std::string other = other_project_token(server, "other");
    auto created = create_build(server, keys_body({shared, fresh}), other);
    REQUIRE(created.status == 201);
    const json targets = created.json()["screenshots"];
    // The stored file and the unknown one get the same answer: an upload target each.
    CHECK(target_keys(created.json()) == std::set<std::string>{shared.key, fresh.key});
    const std::string build_url =
        server.base_url() + "/v2/builds/" + created.json()["build"]["id"].get<std::string>();
    for (const auto& target : targets) {
        if (target["key"] == fresh.key) {
            REQUIRE(upload(target["putUrl"], fresh.bytes) == 200);
        }
    }
    // Naming `shared` without uploading it: refused, nothing stored for the build.
    auto reused = http_json("PUT", build_url, screenshots_of({shared, fresh}), other);
    CHECK(reused.status == 400);
    CHECK(error_of(reused) ==
          "Some screenshots were never uploaded by this project: upload them to the targets POST "
          "/builds answers before updating the build");
    CHECK(first_detail(reused) == "No upload of key " + shared.key + " by this project");
    // Once uploaded (the same bytes), it is the project's too.
    for (const auto& target : targets) {
        if (target["key"] == shared.key) {
            REQUIRE(upload(target["putUrl"], shared.bytes) == 200);
        }
    }
    auto uploaded = http_json("PUT", build_url, screenshots_of({shared, fresh}), other);
    CHECK_MESSAGE(uploaded.status == 200, uploaded.body);
    // A later build of that project names both without uploading anything.
    auto again = create_build(server, keys_body({shared, fresh}), other);
    REQUIRE(again.status == 201);
    CHECK(again.json()["screenshots"].empty());
    // The first project still holds its own copy.
    auto first = create_build(server, keys_body({shared}));
    REQUIRE(first.status == 201);
    CHECK(first.json()["screenshots"].empty());
}

TEST_CASE("quotas: screenshots per build and stored bytes, server-wide and per project") {
    ServerOptions options;
    options.settings = {{"plugins.builds.max_screenshots_per_build", "3"},
                        {"plugins.builds.max_stored_bytes", "1000000"}};
    InProcessServer server(options);
    std::vector<Blob> four{make_blob("q1"), make_blob("q2"), make_blob("q3"), make_blob("q4")};

    auto too_many = create_build(server, keys_body(four));
    CHECK(too_many.status == 413);
    CHECK(error_of(too_many) == "A build of this project holds at most 3 screenshots");
    CHECK(first_detail(too_many).starts_with("This build would hold 4 screenshots"));
    push_build(server, {four[0], four[1], four[2]});

    // Parallel shards count together: a second shard past the limit is refused.
    json shard = keys_body({four[0], four[1]});
    shard["parallel"] = true;
    shard["parallelNonce"] = "quota";
    auto first_shard = create_build(server, shard);
    REQUIRE(first_shard.status == 201);
    const std::string shard_url =
        server.base_url() + "/v2/builds/" + first_shard.json()["build"]["id"].get<std::string>();
    json first_put = screenshots_of({four[0], four[1]});
    first_put.update({{"parallel", true}, {"parallelTotal", 2}, {"parallelIndex", 1}});
    CHECK(http_json("PUT", shard_url, first_put, server.project_token()).status == 200);
    json second_put = screenshots_of({four[2], four[3]});
    second_put["screenshots"][0]["name"] = "shot-2";
    second_put["screenshots"][1]["name"] = "shot-3";
    second_put.update({{"parallel", true}, {"parallelTotal", 2}, {"parallelIndex", 2}});
    auto created = create_build(server, [&] {
        json body = keys_body({four[2], four[3]});
        body["parallel"] = true;
        body["parallelNonce"] = "quota";
        return body;
    }());
    REQUIRE(created.status == 201);
    const json shard_targets = created.json()["screenshots"];
    for (const auto& target : shard_targets) {
        if (target["key"] == four[3].key) {
            REQUIRE(upload(target["putUrl"], four[3].bytes) == 200);
        }
    }
    auto past = http_json("PUT", shard_url, second_put, server.project_token());
    CHECK(past.status == 413);

    // The project's own limits override the server's.
    admin(server, {"quota", "--project", "default/default", "--max-screenshots", "10",
                   "--max-stored-mb", "0"});
    const auto shown = admin(server, {"quota", "--project", "default/default"});
    CHECK(shown["maxScreenshotsPerBuild"] == 10);
    CHECK(shown["maxStoredBytes"].is_null());
    CHECK(shown["storedBytes"].get<int64_t>() > 0);
    CHECK(create_build(server, keys_body(four)).status == 201);
    auto project = http_get(server.base_url() + "/v2/project", server.project_token());
    CHECK(project.json()["quota"] ==
          json{{"maxStoredBytes", nullptr}, {"maxScreenshotsPerBuild", 10}});

    // Stored bytes: a file that would take the project past its quota is refused.
    admin(server, {"quota", "--project", "default/default", "--max-stored-mb", "1"});
    const Blob big = blob_with_bytes(std::string(1536 * 1024, 'b'));
    auto big_build = create_build(server, keys_body({big}));
    REQUIRE(big_build.status == 201);
    REQUIRE(upload(big_build.json()["screenshots"][0]["putUrl"], big.bytes) == 200);
    auto full = http_json(
        "PUT",
        server.base_url() + "/v2/builds/" + big_build.json()["build"]["id"].get<std::string>(),
        screenshots_of({big}), server.project_token());
    CHECK(full.status == 413);
    CHECK(error_of(full) == "This project's storage quota is full");
    // Back to the server's defaults.
    const auto reset = admin(server, {"quota", "--project", "default/default", "--default"});
    CHECK(reset["maxStoredBytes"] == 1000000);
    CHECK(reset["serverDefaults"]["maxStoredBytes"] == true);
}
