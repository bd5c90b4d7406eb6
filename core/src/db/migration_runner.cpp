// Concurrency: on PostgreSQL the whole run holds MigrationLock. On SQLite each step runs in
// its own BEGIN IMMEDIATE transaction (the database-wide write lock) and first re-reads its
// schema_migrations row, so when two instances interleave, each step is still applied once
// and in order: whoever takes the lock second finds the row and skips the step.
#include "db/migration_runner.hpp"

#include <chrono>
#include <map>
#include <set>
#include <stdexcept>

#include "db/migration_lock.hpp"
#include "db/sql_statements.hpp"
#include "db/transaction.hpp"
#include "loupe/crypto/digest.hpp"

namespace loupe {
namespace {

constexpr const char* create_schema_migrations =
    "CREATE TABLE IF NOT EXISTS schema_migrations ("
    "plugin TEXT NOT NULL, version INTEGER NOT NULL, name TEXT NOT NULL, "
    "checksum TEXT NOT NULL, applied_at BIGINT NOT NULL, PRIMARY KEY (plugin, version))";

std::string step_label(const std::string& plugin, int version) {
    return plugin + "/" + std::to_string(version);
}

long long now_millis() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

void check_numbering(const std::vector<MigrationTrack>& tracks) {
    std::set<std::string> plugins;
    for (const auto& track : tracks) {
        if (track.plugin.empty()) {
            throw std::runtime_error("a migration track has no plugin name");
        }
        if (!plugins.insert(track.plugin).second) {
            throw std::runtime_error("plugin '" + track.plugin + "' has two migration tracks");
        }
        for (std::size_t i = 0; i < track.steps.size(); ++i) {
            const auto expected = static_cast<int>(i + 1);
            if (track.steps[i].version != expected) {
                throw std::runtime_error("migrations of plugin '" + track.plugin +
                                         "' must be numbered 1, 2, 3, ... without gaps: step " +
                                         std::to_string(expected) + " has version " +
                                         std::to_string(track.steps[i].version));
            }
        }
    }
}

std::runtime_error changed_after_applied(const std::string& plugin, int version) {
    return std::runtime_error("migration " + step_label(plugin, version) +
                              " changed after it was applied");
}

/// version → checksum of every step of `plugin` the database records.
std::map<int, std::string> recorded_steps(soci::session& session, const std::string& plugin) {
    std::map<int, std::string> recorded;
    int version = 0;
    std::string checksum;
    soci::statement query =
        (session.prepare
             << "SELECT version, checksum FROM schema_migrations WHERE plugin = :plugin",
         soci::use(plugin), soci::into(version), soci::into(checksum));
    query.execute();
    while (query.fetch()) {
        recorded[version] = checksum;
    }
    return recorded;
}

void check_recorded(const MigrationTrack& track, const std::map<int, std::string>& recorded) {
    const auto known = static_cast<int>(track.steps.size());
    if (!recorded.empty() && recorded.rbegin()->first > known) {
        throw std::runtime_error("database is at " +
                                 step_label(track.plugin, recorded.rbegin()->first) +
                                 ", this binary knows " + step_label(track.plugin, known));
    }
    for (const auto& step : track.steps) {
        const auto found = recorded.find(step.version);
        if (found != recorded.end() && found->second != migration_checksum(step)) {
            throw changed_after_applied(track.plugin, step.version);
        }
    }
}

/// Applies `step` with its schema_migrations row in one transaction; false when another
/// instance recorded it meanwhile.
bool apply_step(soci::session& session, Dialect dialect, const std::string& plugin,
                const MigrationStep& step) {
    const auto checksum = migration_checksum(step);
    const auto statements = split_sql_statements(render_sql(dialect, step.sql));
    bool applied = false;
    std::size_t statement_index = 0;
    try {
        run_transaction(session, dialect, [&](soci::session& tx) {
            applied = false;
            statement_index = 0;
            std::string existing;
            soci::indicator existing_indicator = soci::i_null;
            tx << "SELECT checksum FROM schema_migrations WHERE plugin = :plugin AND "
                  "version = :version",
                soci::use(plugin), soci::use(step.version),
                soci::into(existing, existing_indicator);
            if (tx.got_data()) {
                if (existing != checksum) {
                    throw changed_after_applied(plugin, step.version);
                }
                return;
            }
            for (const auto& statement : statements) {
                ++statement_index;
                tx << statement;
            }
            statement_index = 0;
            const auto applied_at = now_millis();
            tx << "INSERT INTO schema_migrations (plugin, version, name, checksum, applied_at) "
                  "VALUES (:plugin, :version, :name, :checksum, :applied_at)",
                soci::use(plugin), soci::use(step.version), soci::use(step.name),
                soci::use(checksum), soci::use(applied_at);
            applied = true;
        });
    } catch (const soci::soci_error& error) {
        auto message =
            "migration " + step_label(plugin, step.version) + " (" + step.name + ") failed";
        if (statement_index > 0) {
            message += " in statement " + std::to_string(statement_index) + " of " +
                       std::to_string(statements.size());
        }
        throw std::runtime_error(message + ": " + error.what());
    }
    return applied;
}

}  // namespace

std::string migration_checksum(const MigrationStep& step) {
    return crypto::sha256_hex(step.sql);
}

std::vector<AppliedMigration> run_migrations(Database& database,
                                             const std::vector<MigrationTrack>& tracks,
                                             Logger& log) {
    check_numbering(tracks);
    const auto dialect = database.dialect();
    auto lease = database.session();
    soci::session& session = *lease;
    const MigrationLock lock(session, dialect, log);
    run_transaction(session, dialect, [](soci::session& tx) { tx << create_schema_migrations; });

    std::vector<AppliedMigration> applied;
    for (const auto& track : tracks) {
        const auto recorded = recorded_steps(session, track.plugin);
        check_recorded(track, recorded);
        for (const auto& step : track.steps) {
            if (recorded.count(step.version) != 0) {
                continue;
            }
            const auto started = std::chrono::steady_clock::now();
            if (!apply_step(session, dialect, track.plugin, step)) {
                continue;
            }
            const auto elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(
                std::chrono::steady_clock::now() - started);
            log.info("migration.applied", {{"track", track.plugin},
                                           {"version", std::to_string(step.version)},
                                           {"name", step.name},
                                           {"ms", std::to_string(elapsed.count())}});
            applied.push_back({track.plugin, step.version, step.name});
        }
    }
    return applied;
}

}  // namespace loupe
