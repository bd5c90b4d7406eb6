#pragma once
// The git plugin's per-project settings (`git_project_settings`, one row per project that
// changed one): which keyless ways in a CI job may use (all off by default), and what Loupe posts
// in pull requests (as Argos: the comment on, the summary check `auto`).

#include <memory>
#include <string>
#include <vector>

#include "loupe/settings/project_settings.hpp"

namespace loupe::git {

struct GitProjectSettings {
    bool tokenless_auth_enabled = false;       ///< tokenless-github-/-gitlab- bearers
    bool github_actions_oidc_enabled = false;  ///< GitHub Actions OIDC ID tokens
    bool gitlab_ci_oidc_enabled = false;       ///< GitLab CI `id_tokens`
    bool pr_comment_enabled = true;            ///< the pull request comment lists its builds
    /// always | never | auto (only when the repository has several projects or build names).
    std::string summary_check = "auto";
};

inline const std::vector<std::string>& summary_check_choices() {
    static const std::vector<std::string> choices{"always", "never", "auto"};
    return choices;
}

const std::shared_ptr<const ProjectSettingsTable<GitProjectSettings>>& git_settings_table();

GitProjectSettings project_settings(soci::session& session, int64_t project_id);

bool tokenless_auth_enabled(soci::session& session, int64_t project_id);
void set_tokenless_auth_enabled(soci::session& session, int64_t project_id, bool enabled);

}  // namespace loupe::git
