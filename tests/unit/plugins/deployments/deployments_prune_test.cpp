// End to end: `loupe admin deployments prune` on a real server's database and blob store, on
// SQLite or PostgreSQL.
#include <doctest/doctest.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include "deployments_client.hpp"

using namespace loupe::test;
using nlohmann::json;

namespace {

std::string repetitive(const std::string& seed) {
    std::string text;
    for (int i = 0; i < 100; ++i) {
        text += "const " + seed + std::to_string(i) + " = 'compressible';\n";
    }
    return text;
}

void wait_until_compressed(const ServerProcess& server) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (count_rows(server, "SELECT COUNT(*) FROM deployments WHERE compressed = 0") > 0 &&
           std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    REQUIRE(count_rows(server, "SELECT COUNT(*) FROM deployments WHERE compressed = 0") == 0);
}

/// Moves a deployment's creation `days` into the past.
void age(const ServerProcess& server, const json& deployment, int days) {
    execute_sql(server, "UPDATE deployments SET created_at = created_at - " +
                            std::to_string(int64_t{days} * 86400000) +
                            " WHERE id = " + deployment["id"].get<std::string>());
}

/// Uploads `bytes` as the only screenshot of a new build (the builds plugin references it).
void screenshot_build(const ServerProcess& server, const std::string& bytes) {
    const std::string key = sha256_hex(bytes);
    const auto created = http_json("POST", server.base_url() + "/v2/builds",
                                   {{"commit", std::string(40, 'b')},
                                    {"branch", "main"},
                                    {"screenshotKeys", json::array({key})}},
                                   server.project_token());
    REQUIRE(created.status == 201);
    const json answer = created.json();  // json() parses anew: iterate over a copy that lives
    for (const auto& target : answer["screenshots"]) {
        REQUIRE(http(HttpCall{"PUT",
                              target["putUrl"].get<std::string>(),
                              bytes,
                              "image/png",
                              std::nullopt,
                              {}})
                    .status == 200);
    }
    const auto updated = http_json(
        "PUT", server.base_url() + "/v2/builds/" + created.json()["build"]["id"].get<std::string>(),
        {{"screenshots", json::array({{{"key", key}, {"name", "shot"}}})}}, server.project_token());
    REQUIRE(updated.status == 200);
}

}  // namespace

TEST_CASE("deployments: prune deletes old deployments and only the blobs nothing references") {
    ServerProcess server(deployments_server_options());
    admin_json(server,
               {"deployments", "settings", "--project", "default/default", "--auth", "public"});
    const std::string only_old = repetitive("old");
    const std::string shared = repetitive("shared");
    const std::string screenshot =
        std::string("\x89PNG\r\n\x1a\n", 8) + "pixels shared with a build";
    const std::string only_new = "<p>new</p>";

    const auto old = deploy(server,
                            {{"old.js", only_old, "text/javascript"},
                             {"shared.js", shared, "text/javascript"},
                             {"shot.png", screenshot, "image/png"}},
                            "old-branch");
    const auto kept = deploy(
        server, {{"shared.js", shared, "text/javascript"}, {"index.html", only_new, "text/html"}},
        "new-branch");
    screenshot_build(server, screenshot);
    wait_until_compressed(server);
    REQUIRE(count_rows(server, "SELECT COUNT(*) FROM deployment_contents WHERE hash = '" +
                                   sha256_hex(only_old) + "' AND gzip_hash IS NOT NULL") == 1);
    age(server, old, 40);
    age(server, kept, 10);

    // A dry run reports and deletes nothing.
    auto report = admin_json(server, {"deployments", "prune", "--older-than", "30d", "--dry-run"});
    CHECK(report["dryRun"] == true);
    CHECK(report["deployments"] == 1);
    CHECK(report["blobsRemoved"] == 2);  // old.js and its gzip variant
    CHECK(count_rows(server, "SELECT COUNT(*) FROM deployments") == 2);
    CHECK(std::filesystem::exists(blob_file(server, sha256_hex(only_old))));

    // --keep-aliases keeps it: its branch alias still points at it.
    report = admin_json(server, {"deployments", "prune", "--older-than", "30d", "--keep-aliases"});
    CHECK(report["deployments"] == 0);
    CHECK(count_rows(server, "SELECT COUNT(*) FROM deployments") == 2);

    report = admin_json(server, {"deployments", "prune", "--older-than", "30d"});
    CHECK(report["dryRun"] == false);
    CHECK(report["deployments"] == 1);
    CHECK(report["files"] == 3);
    CHECK(report["blobsRemoved"] == 2);
    CHECK(report["bytesRemoved"].get<int64_t>() > static_cast<int64_t>(only_old.size()));
    CHECK(report["blobsKept"] == 1);  // the screenshot; shared.js is still deployed

    CHECK_FALSE(std::filesystem::exists(blob_file(server, sha256_hex(only_old))));
    CHECK(std::filesystem::exists(blob_file(server, sha256_hex(shared))));
    CHECK(std::filesystem::exists(blob_file(server, sha256_hex(screenshot))));
    CHECK(std::filesystem::exists(blob_file(server, sha256_hex(only_new))));
    CHECK(count_rows(server, "SELECT COUNT(*) FROM deployments") == 1);
    CHECK(count_rows(server,
                     "SELECT COUNT(*) FROM deployment_aliases WHERE alias = "
                     "'default--old-branch--default'") == 0);
    // Only the kept deployment's contents stay registered (the screenshot no longer is: a new
    // deployment of it uploads it again rather than trust a blob another plugin owns).
    CHECK(count_rows(server, "SELECT COUNT(*) FROM deployment_contents") == 2);
    CHECK(count_rows(server,
                     "SELECT COUNT(*) FROM deployment_contents WHERE gzip_hash IS NOT "
                     "NULL") == 1);

    // The kept site still serves every file, the pruned one is gone.
    const std::string kept_site = site_path(kept);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (http_get(sites_url(server) + site_path(old)).status != 404 &&
           std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    CHECK(http_get(sites_url(server) + site_path(old)).status == 404);
    CHECK(http_get(sites_url(server) + kept_site + "shared.js").body == shared);
    CHECK(http_get(sites_url(server) + kept_site).body == only_new);

    // Deploying the pruned content again asks for its upload.
    const auto again = create_deployment(
        server, deployment_body({{"old.js", only_old, "text/javascript"}}, "again"));
    REQUIRE(again.status == 201);
    CHECK(again.json()["uploadFiles"].size() == 1);

    // Usage errors exit 2.
    std::string out;
    CHECK(server.run_cli({"admin", "deployments", "prune", "--older-than", "soon"}, out) == 2);
    CHECK(server.run_cli({"admin", "deployments", "prune"}, out) == 2);
    CHECK(server.run_cli({"admin", "deployments", "frobnicate"}, out) == 2);
}
