#pragma once
// The run-wide migration lock on PostgreSQL: a session-level advisory lock, held from
// construction to destruction on the session that runs the migrations. All instances use the
// same key, so two servers starting together migrate one after the other.

#include <soci/soci.h>

#include "loupe/db/dialect.hpp"
#include "loupe/log/logger.hpp"

namespace loupe {

class MigrationLock {
public:
    /// Blocks until the lock is taken (PostgreSQL); does nothing on SQLite, where each step's
    /// BEGIN IMMEDIATE serializes instances instead (see migration_runner.cpp).
    MigrationLock(soci::session& session, Dialect dialect, Logger& log);
    ~MigrationLock();
    MigrationLock(const MigrationLock&) = delete;
    MigrationLock& operator=(const MigrationLock&) = delete;

private:
    soci::session& session_;
    Logger& log_;
    bool held_ = false;
};

}  // namespace loupe
