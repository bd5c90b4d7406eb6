// Leases between instances: reclaiming a crashed instance's job, keeping a live job's lease,
// and never running a job twice when two instances share the database.
#include <doctest/doctest.h>

#include <atomic>
#include <condition_variable>
#include <map>
#include <mutex>
#include <stdexcept>
#include <vector>

#include "db/database_impl.hpp"
#include "jobs/job_workers.hpp"
#include "unit/core/jobs/job_fixture.hpp"

namespace loupe {
namespace {

using test::wait_until;

TEST_CASE_FIXTURE(test::JobFixture, "jobs: a crashed instance's expired lease is reclaimed") {
    const int64_t now = now_ms();
    const int64_t crashed = insert_job("test.echo", "running", 1, 5, now - 1'000, "gone:1:dead");
    const int64_t last = insert_job("test.echo", "running", 2, 2, now - 1'000, "gone:1:dead");
    // Still leased by a live instance: not touched.
    const int64_t alive = insert_job("test.echo", "running", 1, 5, now + 600'000, "alive:2:beef");

    std::mutex mutex;
    std::vector<Job> runs;
    std::vector<std::pair<Job, std::string>> give_ups;
    const JobKindTable kinds{{"test.echo",
                              {[&](const Job& job) {
                                   std::lock_guard lock(mutex);
                                   runs.push_back(job);
                               },
                               [&](const Job& job, const std::string& error) {
                                   std::lock_guard lock(mutex);
                                   give_ups.emplace_back(job, error);
                               }}}};
    JobWorkers workers(*database, kinds, settings(), log, signal);
    workers.start();
    REQUIRE(wait_until([&] {
        std::lock_guard lock(mutex);
        return job(crashed).status == "done" && !give_ups.empty();
    }));
    workers.stop();

    REQUIRE(runs.size() == 1);
    CHECK(runs[0].id == crashed);
    CHECK(runs[0].attempt == 2);
    CHECK(job(crashed).attempts == 2);
    CHECK(job(crashed).locked_by == workers.instance_id());

    REQUIRE(give_ups.size() == 1);
    CHECK(give_ups[0].first.id == last);
    CHECK(give_ups[0].first.attempt == 2);
    CHECK(give_ups[0].second == "lease expired on the last attempt");
    const JobRow failed = job(last);
    CHECK(failed.status == "failed");
    CHECK(failed.attempts == 2);
    CHECK(failed.last_error == "lease expired on the last attempt");
    CHECK_FALSE(failed.lease_until.has_value());

    CHECK(job(alive).status == "running");
    CHECK(job(alive).locked_by == "alive:2:beef");
    CHECK(job(alive).attempts == 1);
}

TEST_CASE_FIXTURE(test::JobFixture,
                  "jobs: the heartbeat keeps a long job's lease, so no other instance takes it") {
    std::mutex mutex;
    std::condition_variable changed;
    int runs = 0;
    bool release = false;
    const JobKindTable kinds{{"test.long",
                              {[&](const Job&) {
                                   std::unique_lock lock(mutex);
                                   ++runs;
                                   changed.notify_all();
                                   changed.wait(lock, [&] { return release; });
                               },
                               {}}}};
    auto short_lease = settings(1);
    short_lease.lease_ms = 300;  // extended every 100 ms
    const int64_t id = enqueue("test.long");
    JobWorkers first(*database, kinds, short_lease, log, signal, "first:1:aaaa");
    first.start();
    REQUIRE(wait_until([&] { return job(id).status == "running"; }));
    const int64_t claimed_lease = *job(id).lease_until;

    auto other_database = open_database(test_database.url(), 4);
    JobSignal other_signal;
    JobWorkers second(*other_database, kinds, short_lease, log, other_signal, "second:2:bbbb");
    second.start();
    // Unblocks the handler before the pools join, also when a REQUIRE below gives up.
    const test::ScopeExit unblock([&] {
        {
            std::lock_guard lock(mutex);
            release = true;
        }
        changed.notify_all();
    });
    // Several leases long: without the heartbeat the second instance would have reclaimed it.
    REQUIRE(wait_until([&] { return job(id).lease_until.value_or(0) >= claimed_lease + 900; }));
    {
        std::lock_guard lock(mutex);
        CHECK(runs == 1);
        release = true;
    }
    changed.notify_all();
    REQUIRE(wait_until([&] { return job(id).status == "done"; }));
    second.stop();
    first.stop();
    CHECK(runs == 1);
    CHECK(job(id).locked_by == "first:1:aaaa");
    CHECK(job(id).attempts == 1);
    CHECK(log.lines("job.lease_lost").empty());
}

TEST_CASE_FIXTURE(test::JobFixture, "jobs: two instances never run the same job twice") {
    constexpr int job_count = 200;
    std::mutex mutex;
    std::map<int64_t, int> executions;
    const JobKindTable kinds{{"test.quick",
                              {[&](const Job& job) {
                                   std::lock_guard lock(mutex);
                                   ++executions[job.id];
                               },
                               {}}}};
    std::vector<int64_t> ids;
    database->transaction([&](soci::session& session) {
        for (int i = 0; i < job_count; ++i) {
            ids.push_back(enqueue_job(session, "test.quick", Json{{"i", i}}, JobOptions{}));
        }
    });
    auto other_database = open_database(test_database.url(), 6);
    JobSignal other_signal;
    JobWorkers first(*database, kinds, settings(2), log, signal, "first:1:aaaa");
    JobWorkers second(*other_database, kinds, settings(2), log, other_signal, "second:2:bbbb");
    first.start();
    second.start();
    REQUIRE(wait_until([&] { return count("done") == job_count; }, std::chrono::seconds(120)));
    first.stop();
    second.stop();

    CHECK(executions.size() == job_count);
    int total = 0;
    for (const int64_t id : ids) {
        CHECK_MESSAGE(executions[id] == 1, "job ", id, " ran ", executions[id], " times");
        total += executions[id];
    }
    CHECK(total == job_count);
    CHECK(count("queued") == 0);
    CHECK(count("running") == 0);
}

}  // namespace
}  // namespace loupe
