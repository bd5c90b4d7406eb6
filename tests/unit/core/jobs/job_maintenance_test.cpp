// What workers leave alone (kinds no plugin of this process handles) and what they clean up
// (done jobs older than jobs.keep_done_ms).
#include <doctest/doctest.h>

#include <atomic>

#include "jobs/job_workers.hpp"
#include "unit/core/jobs/job_fixture.hpp"

namespace loupe {
namespace {

using test::wait_until;

TEST_CASE_FIXTURE(test::JobFixture,
                  "jobs: kinds without a handler stay queued and are reported once") {
    std::atomic<int> runs{0};
    const JobKindTable kinds{{"test.known", {[&](const Job&) { ++runs; }, {}}}};
    const int64_t unknown = enqueue("plugin.disabled");
    const int64_t known = enqueue("test.known");
    auto frequent = settings();
    frequent.maintenance_interval_ms = 20;
    JobWorkers workers(*database, kinds, frequent, log, signal);
    workers.start();
    REQUIRE(wait_until([&] { return job(known).status == "done"; }));
    REQUIRE(wait_until([&] { return !log.lines("job.kind_unhandled").empty(); }));
    // A done row older than keep_done_ms, inserted now, is purged by a later maintenance
    // round: by then the unhandled kind has been seen again.
    const int64_t old_done = insert_job("test.known", "done", 1, 5, std::nullopt, "gone:1:dead",
                                        now_ms() - frequent.keep_done_ms - 1'000);
    REQUIRE(wait_until([&] { return job(old_done).status == "missing"; }));
    workers.stop();

    const auto reports = log.lines("job.kind_unhandled");
    REQUIRE(reports.size() == 1);
    CHECK(reports[0].level == LogLevel::warn);
    CHECK(reports[0].fields.find("kind=plugin.disabled") != std::string::npos);
    const JobRow row = job(unknown);
    CHECK(row.status == "queued");
    CHECK(row.attempts == 0);
    CHECK_FALSE(row.locked_by.has_value());
    CHECK(runs == 1);
    CHECK(job(known).status == "done");  // done recently: kept
}

TEST_CASE_FIXTURE(test::JobFixture, "jobs: a pool without any job kind only does maintenance") {
    const int64_t queued = enqueue("plugin.disabled");
    auto frequent = settings();
    frequent.maintenance_interval_ms = 20;
    JobWorkers workers(*database, JobKindTable{}, frequent, log, signal);
    workers.start();
    REQUIRE(wait_until([&] { return !log.lines("job.kind_unhandled").empty(); }));
    workers.stop();
    CHECK(job(queued).status == "queued");
    CHECK(log.lines("job.claim_failed").empty());
}

}  // namespace
}  // namespace loupe
