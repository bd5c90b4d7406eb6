#include "store/project_settings.hpp"

namespace loupe::git {

const std::shared_ptr<const ProjectSettingsTable<GitProjectSettings>>& git_settings_table() {
    static const auto table = std::make_shared<const ProjectSettingsTable<GitProjectSettings>>(
        "git_project_settings",
        std::vector{
            setting_column("tokenless_auth_enabled", &GitProjectSettings::tokenless_auth_enabled),
            setting_column("github_actions_oidc_enabled",
                           &GitProjectSettings::github_actions_oidc_enabled),
            setting_column("gitlab_ci_oidc_enabled", &GitProjectSettings::gitlab_ci_oidc_enabled),
            setting_column("pr_comment_enabled", &GitProjectSettings::pr_comment_enabled),
            setting_column("summary_check", &GitProjectSettings::summary_check)},
        true);
    return table;
}

GitProjectSettings project_settings(soci::session& session, int64_t project_id) {
    return git_settings_table()->read(session, project_id);
}

bool tokenless_auth_enabled(soci::session& session, int64_t project_id) {
    return project_settings(session, project_id).tokenless_auth_enabled;
}

void set_tokenless_auth_enabled(soci::session& session, int64_t project_id, bool enabled) {
    auto settings = project_settings(session, project_id);
    settings.tokenless_auth_enabled = enabled;
    git_settings_table()->write(session, project_id, settings);
}

}  // namespace loupe::git
