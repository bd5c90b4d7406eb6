#include "db/migration_lock.hpp"

namespace loupe {
namespace {

// "loupemig" in ASCII: any fixed 64-bit value works, as long as every instance uses it.
constexpr long long advisory_lock_key = 0x6c6f7570656d6967LL;

}  // namespace

MigrationLock::MigrationLock(soci::session& session, Dialect dialect, Logger& log)
    : session_(session), log_(log) {
    if (dialect != Dialect::postgresql) {
        return;
    }
    session_ << "SELECT pg_advisory_lock(CAST(:key AS BIGINT))", soci::use(advisory_lock_key);
    held_ = true;
}

MigrationLock::~MigrationLock() {
    if (!held_) {
        return;
    }
    try {
        int released = 0;
        session_ << "SELECT CASE WHEN pg_advisory_unlock(CAST(:key AS BIGINT)) THEN 1 ELSE 0 END",
            soci::use(advisory_lock_key), soci::into(released);
        if (released != 1) {
            log_.warn("migration.unlock_not_held");
        }
    } catch (const std::exception& error) {
        // Closing the connection releases a session-level lock; the pool reconnects it later.
        log_.error("migration.unlock_failed", {{"error", error.what()}});
        try {
            session_.close();
        } catch (const std::exception& close_error) {
            log_.error("migration.unlock_close_failed", {{"error", close_error.what()}});
        }
    }
}

}  // namespace loupe
