#include "db/transaction.hpp"

#include <soci/postgresql/soci-postgresql.h>
#include <soci/sqlite3/soci-sqlite3.h>

#include <chrono>
#include <random>
#include <thread>
#include <utility>
#include <vector>

namespace loupe {
namespace {

constexpr int max_attempts = 4;
constexpr int sqlite_busy = 5;  // SQLITE_BUSY; extended codes keep it in the low byte

void pause_before_retry(int attempt) {
    thread_local std::minstd_rand random{std::random_device{}()};
    const auto base = 20 * (1 << attempt);
    std::uniform_int_distribution<int> jitter(0, base);
    std::this_thread::sleep_for(std::chrono::milliseconds(base + jitter(random)));
}

// The after-commit actions of the transaction this thread runs (null: none runs). A thread that
// starts a transaction inside another (on another session) keeps each one's own.
thread_local std::vector<std::function<void()>>* after_commit_actions = nullptr;

struct AfterCommitScope {
    std::vector<std::function<void()>> actions;
    std::vector<std::function<void()>>* outer = after_commit_actions;
    AfterCommitScope() { after_commit_actions = &actions; }
    ~AfterCommitScope() { after_commit_actions = outer; }
    AfterCommitScope(const AfterCommitScope&) = delete;
    AfterCommitScope& operator=(const AfterCommitScope&) = delete;
};

void run_actions(std::vector<std::function<void()>>& actions) noexcept {
    for (auto& action : actions) {
        try {
            action();
        } catch (const std::exception&) {
            // The transaction committed: what happens after it cannot undo or fail it.
        }
    }
}

}  // namespace

void run_after_commit(std::function<void()> action) {
    if (after_commit_actions != nullptr) {
        after_commit_actions->push_back(std::move(action));
        return;
    }
    std::vector<std::function<void()>> now{std::move(action)};
    run_actions(now);
}

void run_transaction_once(soci::session& session, Dialect dialect,
                          const std::function<void(soci::session&)>& work) {
    session << (dialect == Dialect::sqlite ? "BEGIN IMMEDIATE" : "BEGIN");
    AfterCommitScope after_commit;
    try {
        work(session);
        session << "COMMIT";
    } catch (...) {
        try {
            session << "ROLLBACK";
        } catch (const std::exception&) {
            // The connection itself failed; the original error says why, and the pool
            // reconnects a session it finds disconnected.
        }
        throw;
    }
    // Restored first: an action may start a transaction of its own.
    auto actions = std::move(after_commit.actions);
    after_commit_actions = after_commit.outer;
    run_actions(actions);
}

bool is_transient_failure(std::exception_ptr failure) {
    try {
        std::rethrow_exception(failure);
    } catch (const soci::postgresql_soci_error& error) {
        const auto state = error.sqlstate();
        return state == "40001" || state == "40P01";
    } catch (const soci::sqlite3_soci_error& error) {
        return (error.result() & 0xff) == sqlite_busy;
    } catch (...) {
        return false;
    }
}

void run_transaction(soci::session& session, Dialect dialect,
                     const std::function<void(soci::session&)>& work) {
    for (int attempt = 1;; ++attempt) {
        try {
            run_transaction_once(session, dialect, work);
            return;
        } catch (...) {
            if (attempt >= max_attempts || !is_transient_failure(std::current_exception())) {
                throw;
            }
        }
        pause_before_retry(attempt);
    }
}

}  // namespace loupe
