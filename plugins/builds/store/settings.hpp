#pragma once
// The builds plugin's per-project settings: which branches are auto-approved references, how
// recurring changes are ignored, and how long builds are kept.

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "loupe/settings/project_settings.hpp"

namespace loupe::builds {

struct BuildSettings {
    /// Branches whose builds are references (minimatch glob); unset = the default base branch.
    std::optional<std::string> auto_approved_branch_glob;
    bool ignore_enabled = true;
    /// A check build of a pull request the git provider says was merged counts as approved
    /// when a baseline is chosen, as an accepted review would.
    bool merged_pull_request_approval = true;
    /// Changes seen this many times in 7 days on references are ignored; unset = never.
    std::optional<int64_t> auto_ignore_changes = 3;
    /// Builds older than this many days are pruned (0: kept forever); unset = the server's
    /// default (`plugins.builds.retention_days`).
    std::optional<int64_t> retention_days;
    /// Bytes of stored files the project may hold (0: no limit); unset = the server's default
    /// (`plugins.builds.max_stored_bytes`).
    std::optional<int64_t> max_stored_bytes;
    /// Screenshots one build may hold, all shards together (0: no limit); unset = the server's
    /// default (`plugins.builds.max_screenshots_per_build`).
    std::optional<int64_t> max_screenshots_per_build;
};

/// The plugin's table of them (loupe/settings/project_settings.hpp: NULL is "not set").
const std::shared_ptr<const ProjectSettingsTable<BuildSettings>>& build_settings_table();
/// The project's settings (the defaults when it has none stored).
BuildSettings build_settings_of(soci::session& session, int64_t project_id);
/// The settings of several projects in one statement (every id present).
std::map<int64_t, BuildSettings> build_settings_of(soci::session& session,
                                                   const std::vector<int64_t>& project_ids);
/// Stores a project's settings (insert or replace).
void save_build_settings(soci::session& session, int64_t project_id, const BuildSettings& settings);

}  // namespace loupe::builds
