#include "store/settings.hpp"

#include <soci/soci.h>

#include <memory>

namespace loupe::deployments {

const std::shared_ptr<const ProjectSettingsTable<ProjectSettings>>& settings_table() {
    static const auto table = std::make_shared<const ProjectSettingsTable<ProjectSettings>>(
        "deployment_settings",
        std::vector{
            setting_column("enabled", &ProjectSettings::enabled),
            setting_column("production_branch_glob", &ProjectSettings::production_branch_glob),
            setting_column("auth", &ProjectSettings::auth),
            setting_column("production_name", &ProjectSettings::production_name)},
        true);
    return table;
}

const std::vector<std::string>& site_auth_modes() {
    static const std::vector<std::string> modes{"project", "public", "private", "domain-private"};
    return modes;
}

ProjectSettings load_settings(soci::session& session, int64_t project_id) {
    return settings_table()->read(session, project_id);
}

bool production_name_owner(soci::session& session, const std::string& name, int64_t project_id) {
    long long count = 0;
    session << "SELECT COUNT(*) FROM deployment_settings WHERE production_name = :name AND "
               "project_id <> :project",
        soci::use(name, "name"), soci::use(project_id, "project"), soci::into(count);
    return count > 0;
}

std::map<int64_t, ProjectSettings> load_settings(soci::session& session,
                                                 const std::vector<int64_t>& project_ids) {
    return settings_table()->read(session, project_ids);
}

void save_settings(soci::session& session, int64_t project_id, const ProjectSettings& settings) {
    settings_table()->write(session, project_id, settings);
}

}  // namespace loupe::deployments
