// Retention end to end on a real server (SQLite or PostgreSQL): `loupe admin retention` and the
// project's `retentionDays`, then `loupe admin prune` (dry run first, which must change nothing
// and print what the real run then does): old builds deleted by the rules, each branch's latest
// and the baselines of kept builds kept, the reviews plugin's comments deleted with their
// builds, and blobs freed only when nothing references them and they are old enough. Also the
// refusal to sweep blobs while a plugin holding blob keys is not enabled.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <soci/soci.h>
#include <sys/stat.h>

#include <chrono>
#include <filesystem>
#include <set>
#include <thread>

#include "loupe/json.hpp"
#include "processing_client.hpp"
#include "support/admin_cli.hpp"
#include "support/in_process_server.hpp"

using namespace loupe::test;
using nlohmann::json;

namespace {

namespace fs = std::filesystem;

constexpr int64_t day_ms = 86'400'000;

int64_t pushed(const TestServer& server, const std::vector<Shot>& shots, const json& b) {
    const auto number = push_shots(server, shots, b)["number"].get<int64_t>();
    wait_concluded(server, number);
    return number;
}

/// Every blob file of the server's local store, by key.
std::set<std::string> stored_blobs(const TestServer& server) {
    std::set<std::string> keys;
    const fs::path root = fs::path(server.data_dir()) / "blobs";
    for (const auto& entry : fs::recursive_directory_iterator(root)) {
        const auto name = entry.path().filename().string();
        if (entry.is_regular_file() && name.size() == 64 &&
            entry.path().parent_path().parent_path().parent_path() == root) {
            keys.insert(name);
        }
    }
    return keys;
}

/// Makes every stored blob look written `hours` ago.
void age_blobs(const TestServer& server, int hours) {
    const auto when = std::chrono::system_clock::now() - std::chrono::hours(hours);
    const auto seconds =
        std::chrono::duration_cast<std::chrono::seconds>(when.time_since_epoch()).count();
    const struct timespec times[2] = {{seconds, 0}, {seconds, 0}};
    for (const auto& key : stored_blobs(server)) {
        const auto path =
            fs::path(server.data_dir()) / "blobs" / key.substr(0, 2) / key.substr(2, 2) / key;
        REQUIRE(::utimensat(AT_FDCWD, path.c_str(), times, 0) == 0);
    }
}

/// The blob keys the builds plugin's rows hold.
std::set<std::string> referenced_blobs(soci::session& db) {
    std::set<std::string> keys;
    soci::rowset<std::string> rows =
        (db.prepare << "SELECT blob_key FROM screenshots UNION SELECT mask_key FROM "
                       "screenshot_diffs WHERE mask_key IS NOT NULL");
    for (const auto& key : rows) {
        keys.insert(key);
    }
    return keys;
}

std::set<long long> build_numbers(soci::session& db) {
    std::set<long long> numbers;
    soci::rowset<long long> rows = (db.prepare << "SELECT number FROM builds");
    for (const auto number : rows) {
        numbers.insert(number);
    }
    return numbers;
}

json prune(const TestServer& server, std::vector<std::string> extra = {}) {
    std::vector<std::string> args{"admin", "prune", "--json"};
    args.insert(args.end(), extra.begin(), extra.end());
    std::string out;
    const int code = server.run_cli(args, out);
    REQUIRE_MESSAGE(code == 0, out);
    return json_line(out);
}

void comment(const TestServer& server, long long number, const std::string& text) {
    const auto result = http_json("POST",
                                  server.base_url() + "/v2/projects/default/default/builds/" +
                                      std::to_string(number) + "/comments",
                                  {{"body", text}}, server.personal_token());
    REQUIRE_MESSAGE(result.status == 201, result.body);
}

}  // namespace

TEST_CASE("retention: old builds pruned by rule, baselines and latest kept, blobs freed safely") {
    InProcessServer server({{"auth", "builds", "reviews"},
                            {{"blobs.sweep.min_age_ms", "3600000"},
                             {"blobs.sweep.grace_ms", "0"},
                             {"plugins.builds.prune_interval_hours", "0"}},
                            {}});
    const Paint block{10, 8, 14, 10};
    // main: b0 ← b1 ← b2 ← b3 (each the previous one's child); feature f1 off b1; stale: x1
    // then x2, both without a baseline.
    const auto b0 = pushed(server, {{"home", png_blob("home-0")}, {"gone", png_blob("gone-0")}},
                           body(sha('0'), "main"));
    const auto b1 = pushed(server, {{"home", png_blob("home-0", block)}},
                           body(sha('1'), "main", {{"parentCommits", {sha('1'), sha('0')}}}));
    const auto b2 = pushed(server, {{"home", png_blob("home-2")}},
                           body(sha('2'), "main", {{"parentCommits", {sha('2'), sha('1')}}}));
    const auto f1 = pushed(server, {{"home", png_blob("feature-1")}},
                           body(sha('f'), "feature", {{"parentCommits", {sha('f'), sha('1')}}}));
    const auto x1 = pushed(server, {{"solo", png_blob("stale-1")}},
                           body(sha('e'), "stale", {{"parentCommits", {sha('e')}}}));
    const auto b3 = pushed(server, {{"home", png_blob("home-3")}},
                           body(sha('3'), "main", {{"parentCommits", {sha('3'), sha('2')}}}));
    const auto x2 = pushed(server, {{"solo", png_blob("stale-2")}},
                           body(sha('d'), "stale", {{"parentCommits", {sha('d')}}}));
    REQUIRE(get_build(server, b1)["baselineBuild"]["number"] == b0);
    REQUIRE(get_build(server, f1)["baselineBuild"]["number"] == b1);
    REQUIRE(get_build(server, b3)["baselineBuild"]["number"] == b2);
    comment(server, x1, "on a build that goes");
    comment(server, b3, "on a build that stays");

    auto db = open_server_database(server);
    *db << "UPDATE builds SET created_at = created_at - " + std::to_string(40 * day_ms) +
               " WHERE number IN (" + std::to_string(b0) + ", " + std::to_string(b1) + ", " +
               std::to_string(b2) + ", " + std::to_string(f1) + ", " + std::to_string(x1) + ")";
    age_blobs(server, 2);
    // An upload a build has not referenced yet (its PUT /builds is still to come): recent, so
    // no sweep may take it.
    const Blob pending = png_blob("uploaded-meanwhile");
    const auto created = create_build(
        server, {{"commit", sha('9')}, {"branch", "main"}, {"screenshotKeys", {pending.key}}});
    REQUIRE(created.status == 201);
    REQUIRE(upload(created.json()["screenshots"][0]["putUrl"], pending.bytes) == 200);

    // No retention yet: nothing is pruned.
    const auto untouched = prune(server);
    CHECK(untouched["projects"] == 0);
    CHECK(untouched["builds"] == 0);
    CHECK(build_numbers(*db).size() == 8);

    // 30 days for this project; the project resource shows it.
    const auto setting =
        admin(server, {"retention", "--project", "default/default", "--days", "30"});
    CHECK(setting["retentionDays"] == 30);
    CHECK(setting["serverDefault"] == false);
    const auto project = http_get(server.base_url() + "/v2/project", server.project_token());
    CHECK(project.json()["retentionDays"] == 30);

    const auto before_numbers = build_numbers(*db);
    const auto before_blobs = stored_blobs(server);
    const auto before_refs = referenced_blobs(*db);
    const auto comments_before = query_number(*db, "SELECT COUNT(*) FROM comments");

    const auto dry = prune(server, {"--dry-run"});
    CHECK(dry["dryRun"] == true);
    // Nothing changed: builds, rows, blobs, and no quarantine.
    CHECK(build_numbers(*db) == before_numbers);
    CHECK(referenced_blobs(*db) == before_refs);
    CHECK(stored_blobs(server) == before_blobs);
    CHECK(query_number(*db, "SELECT COUNT(*) FROM comments") == comments_before);
    const auto quarantine = fs::path(server.data_dir()) / "blobs" / "quarantine";
    CHECK((!fs::exists(quarantine) || fs::is_empty(quarantine)));

    const auto real = prune(server);
    CHECK(real["dryRun"] == false);
    // The dry run printed what the real run did.
    for (const char* field : {"projects", "builds", "screenshots", "diffs", "shards", "otherRows",
                              "keptLatest", "keptBaselines", "baselineDiffs"}) {
        CAPTURE(field);
        CHECK(dry[field] == real[field]);
    }
    CHECK(dry["blobs"]["removed"] == real["blobs"]["removed"]);
    CHECK(dry["blobs"]["bytesRemoved"] == real["blobs"]["bytesRemoved"]);

    // b0 (old, used only by b1, itself kept only as a baseline) and x1 (old, used by none) go.
    // b1 stays as f1's baseline, b2 as b3's; f1 is feature's latest; b3 and x2 are recent.
    CHECK(real["projects"] == 1);
    CHECK(real["builds"] == 2);
    CHECK(real["screenshots"] == 3);
    CHECK(real["keptLatest"] == 1);
    CHECK(real["keptBaselines"] == 2);
    CHECK(real["baselineDiffs"] == 2);  // b1's diffs against b0's screenshots (home, gone)
    CHECK(real["otherRows"]["comments"] == 1);
    const auto after_numbers = build_numbers(*db);
    CHECK(after_numbers == std::set<long long>{b1, b2, f1, b3, x2, x2 + 1});
    CHECK(query_number(*db, "SELECT COUNT(*) FROM comments") == comments_before - 1);
    // Kept builds still render, b1 without its pruned baseline.
    CHECK(get_build(server, b3)["baselineBuild"]["number"] == b2);
    CHECK(get_build(server, b1)["number"] == b1);

    // Blobs: every key a remaining row references is stored; the ones only pruned rows held
    // are gone; the recent upload stays although nothing references it yet.
    const auto after_refs = referenced_blobs(*db);
    const auto after_blobs = stored_blobs(server);
    int64_t freed = 0;
    for (const auto& key : before_blobs) {
        CAPTURE(key);
        if (after_refs.contains(key) || key == pending.key) {
            CHECK(after_blobs.contains(key));
        } else {
            CHECK_FALSE(after_blobs.contains(key));
            ++freed;
        }
    }
    CHECK(freed == 4);  // gone-0, home-0, stale-1 and the mask of b1's diff against b0
    CHECK(real["blobs"]["removed"] == freed);
    CHECK(after_blobs.contains(pending.key));
    CHECK(real["blobs"]["recent"] == 1);

    // The upload's build can still finish: its blob was never touched.
    const auto finish = http_json(
        "PUT", server.base_url() + "/v2/builds/" + created.json()["build"]["id"].get<std::string>(),
        {{"screenshots", {{{"key", pending.key}, {"name", "late"}}}}}, server.project_token());
    CHECK(finish.status == 200);

    // A second run finds nothing more to do.
    const auto again = prune(server);
    CHECK(again["builds"] == 0);
    CHECK(again["blobs"]["removed"] == 0);
}

TEST_CASE("retention: the blob sweep refuses while a plugin holding blob keys is disabled") {
    InProcessServer server({{"auth", "builds", "deployments"},
                            {{"blobs.sweep.min_age_ms", "0"}, {"blobs.sweep.grace_ms", "0"}},
                            {}});
    pushed(server, {{"home", png_blob("refusal")}}, body(sha('a'), "main"));
    const auto blobs = stored_blobs(server);
    std::string out;
    const int code =
        server.run_cli({"--set", "plugins.enabled=auth,builds", "admin", "prune", "--json"}, out);
    CHECK(code == 3);
    const auto report = json_line(out);
    CHECK(report["blobs"]["swept"] == false);
    CHECK(report["blobs"]["refusal"].get<std::string>().find("deployments") != std::string::npos);
    CHECK(stored_blobs(server) == blobs);
    // With every plugin enabled it sweeps (nothing is unreferenced here).
    CHECK(prune(server)["blobs"]["swept"] == true);
    CHECK(stored_blobs(server) == blobs);
}

TEST_CASE("retention: settings are validated and the server default applies") {
    InProcessServer server({{"auth", "builds"}, {{"plugins.builds.retention_days", "90"}}, {}});
    const auto shown = admin(server, {"retention", "--project", "default/default"});
    CHECK(shown["retentionDays"] == 90);
    CHECK(shown["serverDefault"] == true);
    const auto project = http_get(server.base_url() + "/v2/project", server.project_token());
    CHECK(project.json()["retentionDays"] == 90);
    CHECK(
        admin(server, {"retention", "--project", "default/default", "--days", "0"})["retentionDays"]
            .is_null());
    CHECK(http_get(server.base_url() + "/v2/project", server.project_token())
              .json()["retentionDays"]
              .is_null());
    CHECK(admin(server,
                {"retention", "--project", "default/default", "--default"})["retentionDays"] == 90);

    // --project prunes that project's builds only.
    admin(server, {"project", "create", "--account", "default", "--name", "other"});
    const auto old = pushed(server, {{"solo", png_blob("scoped-1")}},
                            body(sha('a'), "x", {{"parentCommits", {sha('a')}}}));
    const auto latest = pushed(server, {{"solo", png_blob("scoped-2")}},
                               body(sha('b'), "x", {{"parentCommits", {sha('b')}}}));
    auto db = open_server_database(server);
    *db << "UPDATE builds SET created_at = created_at - " + std::to_string(100 * day_ms) +
               " WHERE number = " + std::to_string(old);
    const auto elsewhere = prune(server, {"--project", "default/other", "--skip-blobs"});
    CHECK(elsewhere["projects"] == 1);
    CHECK(elsewhere["builds"] == 0);
    CHECK(elsewhere["blobs"].is_null());
    CHECK(build_numbers(*db) == std::set<long long>{old, latest});
    CHECK(prune(server, {"--project", "default/default", "--skip-blobs"})["builds"] == 1);
    CHECK(build_numbers(*db) == std::set<long long>{latest});

    std::string out;
    CHECK(server.run_cli({"admin", "retention", "--project", "default/default", "--days", "-1"},
                         out) == 2);
    CHECK(server.run_cli({"admin", "retention", "--project", "default/nope"}, out) == 1);
    CHECK(server.run_cli({"admin", "prune", "--bogus"}, out) == 2);
    CHECK(server.run_cli({"admin", "prune", "--project", "default/nope"}, out) == 1);
}

TEST_CASE("retention: the recurring prune job runs, records its report and queues the next run") {
    ServerProcess server({{"auth", "builds"},
                          {{"plugins.builds.retention_days", "30"},
                           {"blobs.sweep.min_age_ms", "0"},
                           {"blobs.sweep.grace_ms", "0"}},
                          {}});
    const auto x1 = pushed(server, {{"solo", png_blob("job-1")}},
                           body(sha('a'), "x", {{"parentCommits", {sha('a')}}}));
    const auto x2 = pushed(server, {{"solo", png_blob("job-2")}},
                           body(sha('b'), "x", {{"parentCommits", {sha('b')}}}));
    auto db = open_server_database(server);
    *db << "UPDATE builds SET created_at = created_at - " + std::to_string(40 * day_ms) +
               " WHERE number = " + std::to_string(x1);
    // The first start scheduled one run, a day from now.
    CHECK(query_number(*db, "SELECT sequence FROM build_prune_schedule") == 0);
    REQUIRE(query_number(*db,
                         "SELECT COUNT(*) FROM jobs WHERE kind = 'build.prune' AND status = "
                         "'queued'") == 1);
    const auto due = query_number(*db, "SELECT run_at FROM jobs WHERE kind = 'build.prune'");
    CHECK(due > loupe::now_ms() + 23 * 3'600'000);
    // Its time comes.
    *db << "UPDATE jobs SET run_at = 0 WHERE kind = 'build.prune'";
    for (int i = 0; i < 300; ++i) {
        if (query_number(*db, "SELECT sequence FROM build_prune_schedule") == 1) {
            break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    REQUIRE(query_number(*db, "SELECT sequence FROM build_prune_schedule") == 1);
    CHECK(build_numbers(*db) == std::set<long long>{x2});
    std::string report_text;
    *db << "SELECT last_report FROM build_prune_schedule", soci::into(report_text);
    const auto report = json::parse(report_text);
    CHECK(report["builds"] == 1);
    CHECK(report["blobs"]["removed"] == 1);  // job-1's file
    // The next run is queued, a day later, and only it may run.
    CHECK(query_number(*db,
                       "SELECT COUNT(*) FROM jobs WHERE kind = 'build.prune' AND status = "
                       "'queued' AND run_at > " +
                           std::to_string(loupe::now_ms() + 23 * 3'600'000)) == 1);
    // After a restart the schedule is not duplicated.
    server.restart();
    CHECK(query_number(*db,
                       "SELECT COUNT(*) FROM jobs WHERE kind = 'build.prune' AND status = "
                       "'queued'") == 1);
}
