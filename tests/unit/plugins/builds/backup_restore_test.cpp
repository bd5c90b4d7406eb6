// `loupe admin backup` while a real server runs and keeps taking uploads, then `loupe admin
// restore` into an empty data folder and a second server started there: it serves the same
// builds, the same screenshot bytes and the same diffs. On PostgreSQL the backup holds the
// blobs and the manifest and prints the pg_dump command instead of copying the database.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "processing_client.hpp"
#include "support/admin_cli.hpp"
#include "support/build_paths.hpp"
#include "support/test_database.hpp"
#include "unit/core/blob/blob_test_content.hpp"

using namespace loupe::test;
using nlohmann::json;

namespace {

namespace fs = std::filesystem;

std::string download(const std::string& url) {
    const auto result = http_get(url);
    REQUIRE_MESSAGE(result.status == 200, url);
    return result.body;
}

json api(const std::string& base_url, const std::string& path, const std::string& token) {
    const auto result = http_get(base_url + "/v2/projects/default/default" + path, token);
    REQUIRE_MESSAGE(result.status == 200, result.body);
    return result.json();
}

/// A build and its diffs as the API shows them, with the SHA-256 of every file it links to
/// instead of the link (which names the server's address).
json comparable(const std::string& base_url, const std::string& token, int64_t number) {
    const auto path = "/builds/" + std::to_string(number);
    auto build = api(base_url, path, token);
    build.erase("url");
    build["notification"].erase("url");
    const auto listed = api(base_url, path + "/diffs", token);
    json diffs = json::array();
    for (auto diff : listed["results"]) {
        for (const char* side : {"base", "head"}) {
            if (!diff[side].is_null()) {
                diff[side]["url"] =
                    loupe::blob_test::sha256_hex(download(diff[side]["url"].get<std::string>()));
            }
        }
        if (!diff["url"].is_null()) {  // the mask
            diff["url"] = loupe::blob_test::sha256_hex(download(diff["url"].get<std::string>()));
        }
        diffs.push_back(diff);
    }
    return {{"build", build}, {"diffs", diffs}};
}

/// One build of one screenshot, uploaded and finalized (no assertions: runs on a thread).
void upload_one(const ServerProcess& server, const std::string& seed) {
    const auto blob = png_blob(seed);
    const auto created = create_build(
        server, {{"commit", sha('c')}, {"branch", "busy"}, {"screenshotKeys", {blob.key}}});
    if (created.status != 201) {
        throw std::runtime_error(created.body);
    }
    const auto answer = created.json();
    for (const auto& target : answer["screenshots"]) {
        upload(target["putUrl"].get<std::string>(), blob.bytes);
    }
    const auto updated = http_json(
        "PUT", server.base_url() + "/v2/builds/" + answer["build"]["id"].get<std::string>(),
        {{"screenshots", {{{"key", blob.key}, {"name", "busy"}}}}}, server.project_token());
    if (updated.status != 200) {
        throw std::runtime_error(updated.body);
    }
}

}  // namespace

TEST_CASE("backup while serving, restore into an empty data folder, serve the same builds") {
    ServerProcess server;
    const Paint block{10, 8, 14, 10};
    const auto reference =
        push_shots(server, {{"home", png_blob("home")}, {"menu", png_blob("menu")}},
                   body(sha('a'), "main"))["number"]
            .get<int64_t>();
    wait_concluded(server, reference);
    const auto check =
        push_shots(server, {{"home", png_blob("home", block)}, {"menu", png_blob("menu")}},
                   body(sha('b'), "feature", {{"parentCommits", {sha('b'), sha('a')}}}))["number"]
            .get<int64_t>();
    REQUIRE(wait_concluded(server, check)["conclusion"] == "changes-detected");

    // Uploads keep coming while the backup runs.
    std::atomic<bool> stop{false};
    std::atomic<int> uploaded{0};
    std::thread uploads([&] {
        try {
            for (int i = 0; !stop && i < 50; ++i) {
                upload_one(server, "busy-" + std::to_string(i));
                ++uploaded;
            }
        } catch (const std::exception&) {
            // An upload failing shows below: the backup must not disturb the server.
        }
    });
    for (int i = 0; i < 600 && uploaded == 0; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    TempDir backups;
    const auto folder = backups.path() + "/backup-1";
    std::string out;
    const int code = server.run_cli({"admin", "backup", folder, "--json"}, out);
    stop = true;
    uploads.join();
    MESSAGE("builds uploaded while the backup ran: " << uploaded.load());
    CHECK(uploaded > 0);
    REQUIRE_MESSAGE(code == 0, out);
    const auto report = json_line(out);
    CHECK(fs::exists(fs::path(folder) / "backup.json"));
    CHECK(fs::exists(fs::path(folder) / "blobs.txt"));
    CHECK((fs::status(folder).permissions() & fs::perms::all) == fs::perms::owner_all);
    CHECK(report["blobs"]["backend"] == "local");
    CHECK(report["blobs"]["count"].get<int64_t>() >= 5);  // 3 screenshots and a mask at least
    // Same filesystem: hard links, no copies.
    CHECK(report["blobs"]["hardLinked"] == report["blobs"]["count"]);
    CHECK(report["blobs"]["copied"] == 0);
    // A backup folder is never reused.
    CHECK(server.run_cli({"admin", "backup", folder}, out) == 1);
    CHECK(out.find("not empty") != std::string::npos);

    if (using_postgres()) {
        CHECK(report["database"]["kind"] == "postgresql");
        CHECK(report["notes"][0].get<std::string>().find("pg_dump --format=custom") !=
              std::string::npos);
        CHECK_FALSE(fs::exists(fs::path(folder) / "loupe.db"));
        return;  // the database itself is pg_dump's to copy
    }
    CHECK(report["database"]["kind"] == "sqlite");
    CHECK(fs::file_size(fs::path(folder) / "loupe.db") > 0);

    TempDir restored;
    const auto data_dir = restored.path() + "/data";
    const std::vector<std::string> target{
        "--config", std::string(LOUPE_TEST_SOURCE_DIR) + "/etc/loupe.properties",
        "--set",    "data.dir=" + data_dir,
        "--set",    "db.url=sqlite:" + data_dir + "/loupe.db",
        "--set",    std::string("plugins.path=") + LOUPE_TEST_PLUGIN_DIR};
    auto restore = target;
    restore.insert(restore.end(), {"admin", "restore", folder, "--verify", "--json"});
    REQUIRE_MESSAGE(run_loupe(restore, out) == 0, out);
    const auto restore_report = json_line(out);
    CHECK(restore_report["missing"].empty());
    CHECK(restore_report["hardLinked"] == report["blobs"]["count"]);
    // A data folder that is not empty is refused.
    CHECK(run_loupe(restore, out) == 1);
    CHECK(out.find("not empty") != std::string::npos);

    ServerProcess copy({{"auth", "builds"},
                        {{"data.dir", data_dir}, {"db.url", "sqlite:" + data_dir + "/loupe.db"}},
                        {}});
    // The restored database holds the same users and tokens.
    for (const auto number : {reference, check}) {
        CAPTURE(number);
        const auto original = comparable(server.base_url(), server.personal_token(), number);
        CHECK(original["diffs"].size() == 2);
        CHECK(comparable(copy.base_url(), server.personal_token(), number) == original);
    }
    const auto listed = http_get(copy.base_url() + "/v2/project", server.project_token());
    CHECK(listed.status == 200);
}
