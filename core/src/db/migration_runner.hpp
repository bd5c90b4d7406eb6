#pragma once

#include <string>
#include <vector>

#include "loupe/db/database.hpp"
#include "loupe/db/migrations.hpp"
#include "loupe/export.hpp"
#include "loupe/log/logger.hpp"

namespace loupe {

struct MigrationTrack {
    std::string plugin;  ///< "core" for the core's own tables
    std::vector<MigrationStep> steps;
};

struct AppliedMigration {
    std::string plugin;
    int version = 0;
    std::string name;
};

/// Applies every pending step, tracks in the given order, under one lock shared by all
/// instances (pg_advisory_lock on PostgreSQL; BEGIN IMMEDIATE on SQLite). Each step and its
/// schema_migrations row commit together. Refuses (std::runtime_error) an applied step whose
/// checksum changed ("migration builds/3 changed after it was applied") and a database ahead
/// of the code ("database is at builds/7, this binary knows builds/5"). A step's SQL is
/// rendered for the dialect and split into statements where ";" ends a line (see
/// sql_statements.hpp); steps must be numbered 1..n per track, checked before anything runs.
LOUPE_API std::vector<AppliedMigration> run_migrations(Database& database,
                                                       const std::vector<MigrationTrack>& tracks,
                                                       Logger& log);

/// SHA-256 hex of a step's portable SQL (what schema_migrations.checksum stores).
LOUPE_API std::string migration_checksum(const MigrationStep& step);

/// The core's own track: identity (users, accounts, memberships, projects, tokens), jobs.
LOUPE_API MigrationTrack core_migration_track();

}  // namespace loupe
