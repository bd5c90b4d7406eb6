#pragma once
// Per-project deployment settings, in the plugin's own table (a project without a row has the
// defaults).

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "loupe/settings/project_settings.hpp"

namespace loupe::deployments {

struct ProjectSettings {
    bool enabled = true;
    /// Branches (glob) whose deployments are `production`; unset = the default base branch.
    std::optional<std::string> production_branch_glob;
    /// Who may view the sites: project (public projects openly, private ones with a signed
    /// link), public, private, or domain-private (private except the production alias).
    std::string auth = "project";
    /// A site name of the project's own that follows its newest production deployment
    /// (`PUT /projects/{owner}/{project}/domain`), besides the production alias; unset: none.
    std::optional<std::string> production_name;
};

/// The values of `auth`: project, public, private, domain-private.
const std::vector<std::string>& site_auth_modes();
/// The plugin's table of them (loupe/settings/project_settings.hpp: NULL is "not set").
const std::shared_ptr<const ProjectSettingsTable<ProjectSettings>>& settings_table();
ProjectSettings load_settings(soci::session& session, int64_t project_id);
/// True when a project other than `project_id` holds `name` as its production name.
bool production_name_owner(soci::session& session, const std::string& name, int64_t project_id);
/// The settings of several projects in one statement (every id present).
std::map<int64_t, ProjectSettings> load_settings(soci::session& session,
                                                 const std::vector<int64_t>& project_ids);
void save_settings(soci::session& session, int64_t project_id, const ProjectSettings& settings);

}  // namespace loupe::deployments
