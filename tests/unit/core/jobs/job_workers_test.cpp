// The job workers of one instance: running, waking, retrying with backoff, giving up.
#include "jobs/job_workers.hpp"

#include <doctest/doctest.h>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

#include "unit/core/jobs/job_fixture.hpp"

namespace loupe {
namespace {

using test::wait_until;

bool logged(const http_test::CapturingLogger& log, std::string_view event,
            const std::string& fields_part) {
    for (const auto& line : log.lines(event)) {
        if (line.fields.find(fields_part) != std::string::npos) {
            return true;
        }
    }
    return false;
}

TEST_CASE_FIXTURE(test::JobFixture, "jobs: a job runs once with its payload and becomes done") {
    std::mutex mutex;
    std::vector<Job> runs;
    const JobKindTable kinds{{"test.echo",
                              {[&](const Job& job) {
                                   std::lock_guard lock(mutex);
                                   runs.push_back(job);
                               },
                               {}}}};
    const int64_t id = enqueue("test.echo", {{"n", 7}});
    JobWorkers workers(*database, kinds, settings(), log, signal);
    workers.start();
    REQUIRE(wait_until([&] { return job(id).status == "done"; }));
    workers.stop();

    REQUIRE(runs.size() == 1);
    CHECK(runs[0].id == id);
    CHECK(runs[0].kind == "test.echo");
    CHECK(runs[0].payload == Json{{"n", 7}});
    CHECK(runs[0].attempt == 1);
    CHECK(runs[0].max_attempts == 5);
    const JobRow row = job(id);
    CHECK(row.attempts == 1);
    CHECK_FALSE(row.lease_until.has_value());
    CHECK(row.locked_by == workers.instance_id());
    CHECK_FALSE(row.last_error.has_value());
}

TEST_CASE_FIXTURE(test::JobFixture, "jobs: a delayed job does not run before its time") {
    std::atomic<int64_t> started_at{0};
    const JobKindTable kinds{{"test.later", {[&](const Job&) { started_at = now_ms(); }, {}}}};
    JobOptions options;
    options.delay_ms = 300;
    const int64_t enqueued_at = now_ms();
    const int64_t id = enqueue("test.later", Json::object(), options);
    JobWorkers workers(*database, kinds, settings(), log, signal);
    workers.start();
    REQUIRE(wait_until([&] { return job(id).status == "done"; }));
    CHECK(started_at >= enqueued_at + 300);
}

TEST_CASE_FIXTURE(test::JobFixture,
                  "jobs: a deferred job runs again after the delay it asked for, the attempt not "
                  "counted") {
    std::mutex mutex;
    std::vector<std::pair<int, int64_t>> runs;  // (attempt, when)
    const JobKindTable kinds{{"test.busy",
                              {[&](const Job& job) {
                                   std::lock_guard lock(mutex);
                                   runs.emplace_back(job.attempt, now_ms());
                                   if (runs.size() < 3) {
                                       throw JobDeferred(150, "the row is busy");
                                   }
                               },
                               {}}}};
    JobOptions once;
    once.max_attempts = 1;
    const int64_t id = enqueue("test.busy", Json::object(), once);
    JobWorkers workers(*database, kinds, settings(), log, signal);
    workers.start();
    REQUIRE(wait_until([&] { return job(id).status == "done"; }));
    workers.stop();
    std::lock_guard lock(mutex);
    REQUIRE(runs.size() == 3);
    // One attempt allowed, yet three runs: deferrals are not failures.
    CHECK(runs[0].first == 1);
    CHECK(runs[1].first == 1);
    CHECK(runs[2].first == 1);
    CHECK(runs[1].second - runs[0].second >= 150);
    CHECK(runs[2].second - runs[1].second >= 150);
    CHECK(job(id).attempts == 1);
    CHECK_FALSE(job(id).last_error.has_value());
}

TEST_CASE_FIXTURE(test::JobFixture, "jobs: an enqueue in this process wakes an idle worker") {
    std::atomic<int> runs{0};
    const JobKindTable kinds{{"test.wake", {[&](const Job&) { ++runs; }, {}}}};
    auto slow_poll = settings(1);
    slow_poll.poll_ms = 600'000;  // only the signal can wake the worker within the test
    JobWorkers workers(*database, kinds, slow_poll, log, signal);
    workers.start();
    // The worker's first look finds nothing; it then sleeps until notified.
    const int64_t id = enqueue("test.wake");
    signal.notify();
    REQUIRE(wait_until([&] { return job(id).status == "done"; }));
    CHECK(runs == 1);
}

TEST_CASE_FIXTURE(test::JobFixture,
                  "jobs: a failing job is retried with backoff, then fails and gives up once") {
    std::mutex mutex;
    std::vector<int64_t> started;
    std::vector<int> attempts;
    int give_ups = 0;
    Job given_up;
    std::string give_up_error;
    const JobKindTable kinds{{"test.flaky",
                              {[&](const Job& job) {
                                   {
                                       std::lock_guard lock(mutex);
                                       started.push_back(now_ms());
                                       attempts.push_back(job.attempt);
                                   }
                                   throw std::runtime_error("boom " + std::to_string(job.attempt));
                               },
                               [&](const Job& job, const std::string& error) {
                                   std::lock_guard lock(mutex);
                                   ++give_ups;
                                   given_up = job;
                                   give_up_error = error;
                               }}}};
    JobOptions options;
    options.max_attempts = 3;
    const int64_t id = enqueue("test.flaky", Json::object(), options);
    JobWorkers workers(*database, kinds, settings(), log, signal);
    workers.start();
    REQUIRE(wait_until([&] {
        std::lock_guard lock(mutex);
        return give_ups > 0;
    }));
    workers.stop();

    CHECK(attempts == std::vector<int>{1, 2, 3});
    REQUIRE(started.size() == 3);
    CHECK(started[1] - started[0] >= 40);  // retry_base_ms
    CHECK(started[2] - started[1] >= 80);  // doubled
    CHECK(give_ups == 1);
    CHECK(given_up.id == id);
    CHECK(given_up.attempt == 3);
    CHECK(give_up_error == "boom 3");
    const JobRow row = job(id);
    CHECK(row.status == "failed");
    CHECK(row.attempts == 3);
    CHECK(row.last_error == "boom 3");
    CHECK_FALSE(row.lease_until.has_value());
    CHECK(log.lines("job.attempt_failed").size() == 2);
    CHECK(logged(log, "job.attempt_failed", " id=" + std::to_string(id) + " attempt=1 "));
    CHECK(logged(log, "job.attempt_failed", "retry_in_ms=80 error=boom 2"));
    REQUIRE(log.lines("job.failed").size() == 1);
    CHECK(logged(
        log, "job.failed",
        "kind=test.flaky id=" + std::to_string(id) + " attempt=3 max_attempts=3 error=boom 3"));
}

TEST_CASE_FIXTURE(test::JobFixture, "jobs: a give-up handler that throws is logged, not fatal") {
    std::atomic<int> later_runs{0};
    const JobKindTable kinds{
        {"test.doomed",
         {[](const Job&) { throw std::runtime_error("no way"); },
          [](const Job&, const std::string&) { throw std::runtime_error("give-up broke"); }}},
        {"test.later", {[&](const Job&) { ++later_runs; }, {}}}};
    JobOptions once;
    once.max_attempts = 1;
    const int64_t doomed = enqueue("test.doomed", Json::object(), once);
    JobWorkers workers(*database, kinds, settings(1), log, signal);
    workers.start();
    REQUIRE(wait_until([&] { return !log.lines("job.give_up_failed").empty(); }));
    CHECK(logged(log, "job.give_up_failed", "error=give-up broke"));
    CHECK(job(doomed).status == "failed");
    CHECK(job(doomed).last_error == "no way");
    const int64_t later = enqueue("test.later");
    REQUIRE(wait_until([&] { return job(later).status == "done"; }));
    CHECK(later_runs == 1);
}

TEST_CASE_FIXTURE(test::JobFixture, "jobs: stop lets the running job finish") {
    std::mutex mutex;
    std::condition_variable changed;
    bool started = false;
    bool release = false;
    const JobKindTable kinds{{"test.slow",
                              {[&](const Job&) {
                                   std::unique_lock lock(mutex);
                                   started = true;
                                   changed.notify_all();
                                   changed.wait(lock, [&] { return release; });
                               },
                               {}}}};
    const int64_t id = enqueue("test.slow");
    JobWorkers workers(*database, kinds, settings(), log, signal);
    workers.start();
    const test::ScopeExit unblock([&] {
        {
            std::lock_guard lock(mutex);
            release = true;
        }
        changed.notify_all();
    });
    {
        std::unique_lock lock(mutex);
        REQUIRE(changed.wait_for(lock, std::chrono::seconds(20), [&] { return started; }));
    }
    const uint64_t before_stop = signal.generation();
    std::atomic<bool> stopped{false};
    std::thread stopper([&] {
        workers.stop();
        stopped = true;
    });
    // stop() wakes the idle workers through the signal first, then joins the busy one.
    CHECK(wait_until([&] { return signal.generation() != before_stop; }));
    CHECK_FALSE(stopped);
    {
        std::lock_guard lock(mutex);
        release = true;
    }
    changed.notify_all();
    stopper.join();
    CHECK(job(id).status == "done");
}

}  // namespace
}  // namespace loupe
