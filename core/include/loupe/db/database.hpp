#pragma once
// The database: a pool of SOCI sessions on SQLite (WAL, busy timeout) or PostgreSQL.
// OWNERSHIP: the Database lives as long as the process; leases return sessions to the pool.
// THREADS: the Database is thread-safe; a lease is used by one thread.

#include <soci/soci.h>

#include <cstddef>
#include <functional>
#include <string>
#include <utility>

#include "loupe/db/dialect.hpp"
#include "loupe/export.hpp"

namespace loupe {

class LOUPE_API SessionLease {
public:
    SessionLease(soci::connection_pool& pool, std::size_t position);
    SessionLease(SessionLease&& other) noexcept;
    SessionLease& operator=(SessionLease&&) = delete;
    SessionLease(const SessionLease&) = delete;
    ~SessionLease();

    soci::session& operator*() { return *session_; }
    soci::session* operator->() { return session_; }

private:
    soci::connection_pool* pool_;
    std::size_t position_;
    soci::session* session_;
};

class LOUPE_API Database {
public:
    virtual ~Database();
    virtual Dialect dialect() const = 0;
    /// Borrows a session from the pool (blocks while all are in use).
    virtual SessionLease session() = 0;

    /// Runs `work(session)` in a transaction: BEGIN IMMEDIATE on SQLite (writers queue on the
    /// busy timeout instead of deadlocking), BEGIN on PostgreSQL. Commits if `work` returns,
    /// rolls back and rethrows if it throws. Serialization failures are retried a few times,
    /// so `work` must not have side effects outside the database.
    template <class Work>
    auto transaction(Work&& work) -> decltype(work(std::declval<soci::session&>())) {
        using Result = decltype(work(std::declval<soci::session&>()));
        if constexpr (std::is_void_v<Result>) {
            run_in_transaction([&](soci::session& s) { work(s); });
        } else {
            Result result{};
            run_in_transaction([&](soci::session& s) { result = work(s); });
            return result;
        }
    }

    /// The dialect-rendered form of portable SQL (see dialect.hpp).
    std::string sql(std::string_view portable) const { return render_sql(dialect(), portable); }

protected:
    virtual void run_in_transaction(const std::function<void(soci::session&)>& work) = 0;
};

}  // namespace loupe
