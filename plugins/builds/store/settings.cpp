#include "store/settings.hpp"

#include <memory>

namespace loupe::builds {

const std::shared_ptr<const ProjectSettingsTable<BuildSettings>>& build_settings_table() {
    static const auto table = std::make_shared<const ProjectSettingsTable<BuildSettings>>(
        "build_settings",
        std::vector{
            setting_column("auto_approved_branch_glob", &BuildSettings::auto_approved_branch_glob),
            setting_column("ignore_enabled", &BuildSettings::ignore_enabled),
            setting_column("merged_pull_request_approval",
                           &BuildSettings::merged_pull_request_approval),
            setting_column("auto_ignore_changes", &BuildSettings::auto_ignore_changes),
            setting_column("retention_days", &BuildSettings::retention_days),
            setting_column("max_stored_bytes", &BuildSettings::max_stored_bytes),
            setting_column("max_screenshots_per_build",
                           &BuildSettings::max_screenshots_per_build)});
    return table;
}

BuildSettings build_settings_of(soci::session& session, int64_t project_id) {
    return build_settings_table()->read(session, project_id);
}

std::map<int64_t, BuildSettings> build_settings_of(soci::session& session,
                                                   const std::vector<int64_t>& project_ids) {
    return build_settings_table()->read(session, project_ids);
}

void save_build_settings(soci::session& session, int64_t project_id,
                         const BuildSettings& settings) {
    build_settings_table()->write(session, project_id, settings);
}

}  // namespace loupe::builds
