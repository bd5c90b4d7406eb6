// `loupe jobs list|retry` through the real executable.
#include <doctest/doctest.h>

#include "support/build_paths.hpp"
#include "support/server_process.hpp"
#include "unit/core/jobs/job_fixture.hpp"

namespace loupe {
namespace {

struct JobsCommandFixture : test::JobFixture {
    test::TempDir data;

    int jobs(std::vector<std::string> args, std::string& out) {
        std::vector<std::string> full{
            "--config", std::string(LOUPE_TEST_SOURCE_DIR) + "/etc/loupe.properties",
            "--set",    "db.url=" + test_database.url(),
            "--set",    "data.dir=" + data.path(),
            "--set",    "log.level=warn",
            "jobs"};
        full.insert(full.end(), args.begin(), args.end());
        return test::run_loupe(full, out);
    }

    Json jobs_json(std::vector<std::string> args) {
        std::string out;
        args.push_back("--json");
        const int status = jobs(args, out);
        INFO(out);
        REQUIRE(status == 0);
        return Json::parse(out);
    }

    static std::vector<std::string> ids(const Json& listing) {
        std::vector<std::string> ids;
        for (const auto& job : listing["jobs"]) {
            ids.push_back(job["id"].get<std::string>());
        }
        return ids;
    }
};

TEST_CASE_FIXTURE(JobsCommandFixture, "loupe jobs list: everything not done, newest first") {
    const int64_t queued = enqueue("build.process", {{"buildId", 12}});
    const int64_t failed = insert_job("build.process", "failed", 5, 5, std::nullopt, "host:1:ab");
    insert_job("build.process", "done", 1, 5, std::nullopt, "host:1:ab");
    const int64_t running =
        insert_job("other.kind", "running", 1, 3, now_ms() + 60'000, "host:2:cd");

    const Json listing = jobs_json({"list"});
    CHECK(ids(listing) == std::vector<std::string>{std::to_string(running), std::to_string(failed),
                                                   std::to_string(queued)});
    const Json& first = listing["jobs"][0];
    CHECK(first["kind"] == "other.kind");
    CHECK(first["status"] == "running");
    CHECK(first["attempts"] == 1);
    CHECK(first["maxAttempts"] == 3);
    CHECK(first["lockedBy"] == "host:2:cd");
    CHECK(first["leaseUntil"].is_string());
    CHECK(first["lastError"].is_null());
    const Json& last = listing["jobs"][2];
    CHECK(last["payload"] == Json{{"buildId", 12}});
    CHECK(last["leaseUntil"].is_null());
    CHECK(last["lockedBy"].is_null());

    CHECK(jobs_json({"list", "--status", "done"})["jobs"].size() == 1);
    CHECK(ids(jobs_json({"list", "--kind", "other.kind"})) ==
          std::vector<std::string>{std::to_string(running)});
    CHECK(ids(jobs_json({"list", "--status=failed", "--kind=build.process"})) ==
          std::vector<std::string>{std::to_string(failed)});
    CHECK(jobs_json({"list", "--limit", "2"})["jobs"].size() == 2);

    std::string table;
    REQUIRE(jobs({"list"}, table) == 0);
    CHECK(table.find("ID") == 0);
    CHECK(table.find("LAST ERROR") != std::string::npos);
    CHECK(table.find("5/5") != std::string::npos);

    std::string usage;
    CHECK(jobs({"list", "--status", "lost"}, usage) == 2);
    CHECK(usage.find("invalid status \"lost\"") != std::string::npos);
}

TEST_CASE_FIXTURE(JobsCommandFixture, "loupe jobs retry: a failed job is queued again") {
    const int64_t failed = insert_job("build.process", "failed", 5, 5, std::nullopt, "host:1:ab");
    const int64_t queued = enqueue("build.process");
    const int64_t before = now_ms();

    const Json retried = jobs_json({"retry", std::to_string(failed)});
    CHECK(retried["job"]["id"] == std::to_string(failed));
    CHECK(retried["job"]["status"] == "queued");
    CHECK(retried["job"]["attempts"] == 0);
    const JobRow row = job(failed);
    CHECK(row.status == "queued");
    CHECK(row.attempts == 0);
    CHECK(row.run_at >= before);

    std::string out;
    CHECK(jobs({"retry", std::to_string(queued)}, out) == 1);
    CHECK(out.find("loupe jobs: job " + std::to_string(queued) +
                   " is queued, not failed: only failed jobs can be retried") != std::string::npos);
    CHECK(jobs({"retry", "987654"}, out) == 1);
    CHECK(out.find("loupe jobs: job 987654 not found") != std::string::npos);
    CHECK(jobs({"retry", std::to_string(failed)}, out) == 1);  // queued now
    CHECK(jobs({"retry"}, out) == 2);
    CHECK(jobs({"retry", "abc"}, out) == 2);
}

}  // namespace
}  // namespace loupe
