#pragma once
// A migrated test database for the job queue tests, with helpers to enqueue, read job rows
// and wait for a condition (never a fixed sleep).

#include <doctest/doctest.h>

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <thread>

#include "jobs/job_listing.hpp"
#include "jobs/job_settings.hpp"
#include "jobs/job_signal.hpp"
#include "jobs/job_store.hpp"
#include "unit/core/http/capturing_logger.hpp"
#include "unit/core/identity/identity_fixture.hpp"

namespace loupe::test {

/// Polls `condition` every few milliseconds until it holds or `timeout` passes.
inline bool wait_until(const std::function<bool()>& condition,
                       std::chrono::milliseconds timeout = std::chrono::seconds(20)) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (!condition()) {
        if (std::chrono::steady_clock::now() >= deadline) {
            return false;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return true;
}

/// Runs `action` when the scope ends, also when a REQUIRE leaves it early.
struct ScopeExit {
    explicit ScopeExit(std::function<void()> action) : action_(std::move(action)) {}
    ~ScopeExit() { action_(); }
    ScopeExit(const ScopeExit&) = delete;
    ScopeExit& operator=(const ScopeExit&) = delete;

private:
    std::function<void()> action_;
};

struct JobFixture {
    TestDatabase test_database;
    std::unique_ptr<Database> database = open_migrated_database(test_database.url());
    http_test::CapturingLogger log;
    JobSignal signal;

    /// Fast settings for tests: short poll, lease and backoff.
    static JobSettings settings(int workers = 2) {
        JobSettings settings;
        settings.workers = workers;
        settings.lease_ms = 5'000;
        settings.poll_ms = 20;
        settings.retry_base_ms = 40;
        settings.retry_max_ms = 1'000;
        return settings;
    }

    int64_t enqueue(const std::string& kind, const Json& payload = Json::object(),
                    JobOptions options = {}) {
        return database->transaction(
            [&](soci::session& session) { return enqueue_job(session, kind, payload, options); });
    }

    /// Inserts a row as another instance would have left it.
    int64_t insert_job(const std::string& kind, const std::string& status, int attempts,
                       int max_attempts, std::optional<int64_t> lease_until,
                       const std::string& locked_by, int64_t updated_at = now_ms()) {
        auto session = database->session();
        const std::string payload = "{}";
        const int64_t run_at = updated_at - 1'000;
        const int64_t lease = lease_until.value_or(0);
        soci::indicator lease_indicator = lease_until ? soci::i_ok : soci::i_null;
        int64_t id = 0;
        *session << "INSERT INTO jobs (kind, payload, status, attempts, max_attempts, run_at, "
                    "lease_until, locked_by, created_at, updated_at) VALUES (:kind, :payload, "
                    ":status, :attempts, :max, :run_at, :lease, :locked_by, :created, :updated) "
                    "RETURNING id",
            soci::use(kind), soci::use(payload), soci::use(status), soci::use(attempts),
            soci::use(max_attempts), soci::use(run_at), soci::use(lease, lease_indicator),
            soci::use(locked_by), soci::use(run_at), soci::use(updated_at), soci::into(id);
        return id;
    }

    /// The job's row; status "missing" when it does not exist.
    JobRow job(int64_t id) {
        if (auto row = find_job(*database, id)) {
            return *row;
        }
        JobRow missing;
        missing.status = "missing";
        return missing;
    }

    int64_t count(const std::string& status) {
        auto session = database->session();
        int64_t count = 0;
        *session << "SELECT COUNT(*) FROM jobs WHERE status = :status", soci::use(status),
            soci::into(count);
        return count;
    }
};

}  // namespace loupe::test
