// Crash safety of processing: SIGKILL while a build's diffs are being computed, restart, and
// the build concludes with the stats it would have had, with no row or blob lost or counted
// twice (jobs are leased, handlers idempotent, each diff's effects one transaction).
#include <doctest/doctest.h>
#include <soci/soci.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <thread>

#include "loupe/crypto/digest.hpp"
#include "processing_client.hpp"

using namespace loupe::test;
using nlohmann::json;

namespace {

constexpr int shot_count = 80;  // half of them changed: 40 diffs to compute

std::vector<Shot> screenshots(bool changed_half) {
    std::vector<Shot> shots;
    for (int i = 0; i < shot_count; ++i) {
        std::optional<Paint> paint;
        if (changed_half && i % 2 == 0) {
            paint = Paint{100 + i, 80, 120, 90};
        }
        shots.push_back({"page-" + std::to_string(i),
                         gradient_png("page-" + std::to_string(i), 800, 600, paint)});
    }
    return shots;
}

long long build_count(soci::session& db, const std::string& sql_tail, int64_t build_id) {
    return query_number(db, sql_tail + std::to_string(build_id));
}

}  // namespace

TEST_CASE("a server killed while diffing concludes the build after a restart, exactly once") {
    ServerProcess server(
        ServerOptions{{"auth", "builds"},
                      {{"jobs.lease_ms", "1500"}, {"jobs.poll_ms", "50"}, {"jobs.workers", "2"}},
                      {}});
    auto reference = wait_concluded(
        server,
        push_shots(server, screenshots(false), {{"commit", sha('a')}, {"branch", "main"}})["number"]
            .get<int64_t>());
    REQUIRE(reference["stats"]["added"] == shot_count);

    // A second reference build (main): its computed diffs feed the flakiness counters, which
    // would show any diff counted twice.
    auto pushed = push_shots(
        server, screenshots(true),
        {{"commit", sha('b')}, {"branch", "main"}, {"parentCommits", {sha('b'), sha('a')}}});
    const int64_t number = pushed["number"].get<int64_t>();
    const int64_t build_id = std::stoll(pushed["id"].get<std::string>());

    auto db = open_server_database(server);
    long long done_at_kill = 0, total_at_kill = 0;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (std::chrono::steady_clock::now() < deadline) {
        total_at_kill =
            build_count(*db, "SELECT COUNT(*) FROM screenshot_diffs WHERE build_id = ", build_id);
        done_at_kill = build_count(
            *db,
            "SELECT COUNT(*) FROM screenshot_diffs WHERE job_status = 'complete' AND score > 0 "
            "AND build_id = ",
            build_id);
        if (done_at_kill > 0) {
            break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    server.kill();
    MESSAGE("killed with " << done_at_kill << " of 40 changed diffs computed (" << total_at_kill
                           << " diff rows)");
    CHECK(done_at_kill < shot_count / 2);  // the kill landed while work remained

    server.restart();
    auto build = wait_concluded(server, number);
    CHECK(build["conclusion"] == "changes-detected");
    CHECK(build["stats"]["changed"] == shot_count / 2);
    CHECK(build["stats"]["unchanged"] == shot_count / 2);
    CHECK(build["stats"]["total"] == shot_count);

    db = open_server_database(server);
    CHECK(build_count(*db, "SELECT COUNT(*) FROM screenshot_diffs WHERE build_id = ", build_id) ==
          shot_count);
    CHECK(build_count(*db,
                      "SELECT COUNT(DISTINCT head_screenshot_id) FROM screenshot_diffs WHERE "
                      "build_id = ",
                      build_id) == shot_count);
    CHECK(build_count(*db, "SELECT COUNT(*) FROM screenshots WHERE build_id = ", build_id) ==
          shot_count);
    CHECK(query_number(*db, "SELECT COUNT(*) FROM jobs WHERE status = 'failed'") == 0);
    // Counters: the reference build's 80 added screenshots (dimensions looked up by the job)
    // plus this build's 40 computed pairs, each exactly once.
    CHECK(query_number(*db, "SELECT CAST(SUM(value) AS BIGINT) FROM test_stats_builds") ==
          shot_count + shot_count / 2);
    CHECK(query_number(*db, "SELECT CAST(SUM(value) AS BIGINT) FROM test_stats_fingerprints") ==
          shot_count / 2);

    // Every mask is stored; every blob file holds the bytes of its key (a write cut by the kill
    // stays a temporary under blobs/tmp, removed once stale, never a half blob under a key).
    soci::rowset<std::string> masks = (db->prepare << "SELECT mask_key FROM screenshot_diffs "
                                                      "WHERE mask_key IS NOT NULL AND build_id = "
                                                   << build_id);
    int mask_count = 0;
    const auto blobs = std::filesystem::path(server.data_dir()) / "blobs";
    for (const auto& key : masks) {
        const auto path = blobs / key.substr(0, 2) / key.substr(2, 2) / key;
        CHECK_MESSAGE(std::filesystem::exists(path), path.string());
        ++mask_count;
    }
    CHECK(mask_count == shot_count / 2);
    int blob_files = 0;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(blobs)) {
        if (!entry.is_regular_file() || entry.path().parent_path() == blobs / "tmp") {
            continue;
        }
        std::ifstream file(entry.path(), std::ios::binary);
        std::string bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
        CHECK_MESSAGE(loupe::crypto::sha256_hex(bytes) == entry.path().filename(),
                      entry.path().string());
        ++blob_files;
    }
    // The bases, the changed heads (unchanged ones are the base files) and the masks.
    CHECK(blob_files == shot_count + shot_count / 2 + shot_count / 2);
}
