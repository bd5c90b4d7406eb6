#pragma once
// Transactions on one SOCI session, shared by Database::transaction and the migration runner.

#include <soci/soci.h>

#include <exception>
#include <functional>

#include "loupe/db/dialect.hpp"
#include "loupe/export.hpp"

namespace loupe {

/// BEGIN IMMEDIATE (SQLite: take the write lock up front, waiting on the busy timeout, so two
/// writers never deadlock upgrading a read lock) or BEGIN (PostgreSQL); then `work`; COMMIT.
/// If anything throws: ROLLBACK and rethrow. One attempt.
LOUPE_API void run_transaction_once(soci::session& session, Dialect dialect,
                                    const std::function<void(soci::session&)>& work);

/// Runs `action` once the transaction this thread is running in run_transaction_once commits,
/// and never when it rolls back (an attempt that is retried drops the actions of the attempt
/// that failed); at once when this thread runs no transaction. For what others may only see
/// after the commit, such as waking the job workers for a job inserted in the transaction: a
/// worker woken before the commit would find nothing and sleep until its next poll.
/// An action that throws is not reported to the committed transaction's caller.
LOUPE_API void run_after_commit(std::function<void()> action);

/// True for failures worth retrying the whole transaction: PostgreSQL serialization failure or
/// deadlock (SQLSTATE 40001, 40P01), SQLite SQLITE_BUSY.
LOUPE_API bool is_transient_failure(std::exception_ptr failure);

/// run_transaction_once, retried with a short growing pause while is_transient_failure.
LOUPE_API void run_transaction(soci::session& session, Dialect dialect,
                               const std::function<void(soci::session&)>& work);

}  // namespace loupe
