#pragma once
// The git plugin's per-project settings (`git_project_settings`, one row per project that
// changed one): which keyless ways in a CI job may use. All off by default.

#include <memory>

#include "loupe/settings/project_settings.hpp"

namespace loupe::git {

struct GitProjectSettings {
    bool tokenless_auth_enabled = false;       ///< tokenless-github-/-gitlab- bearers
    bool github_actions_oidc_enabled = false;  ///< GitHub Actions OIDC ID tokens
    bool gitlab_ci_oidc_enabled = false;       ///< GitLab CI `id_tokens`
};

const std::shared_ptr<const ProjectSettingsTable<GitProjectSettings>>& git_settings_table();

GitProjectSettings project_settings(soci::session& session, int64_t project_id);

bool tokenless_auth_enabled(soci::session& session, int64_t project_id);
void set_tokenless_auth_enabled(soci::session& session, int64_t project_id, bool enabled);

}  // namespace loupe::git
