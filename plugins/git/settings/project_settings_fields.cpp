#include "settings/project_settings_fields.hpp"

#include "loupe/settings/project_setting_fields.hpp"
#include "store/project_settings.hpp"

namespace loupe::git {
namespace {

ProjectSettingField<GitProjectSettings> flag_field(const char* name,
                                                   bool GitProjectSettings::*member) {
    return {
        .name = name,
        .show = [member](const GitProjectSettings& s, const Project&) { return Json(s.*member); },
        .change = [name, member](GitProjectSettings& s, const Json& value,
                                 const Project&) { s.*member = flag_setting(name, value); }};
}

}  // namespace

void add_project_settings_fields(ProjectFields& fields) {
    add_project_setting_fields<GitProjectSettings>(
        fields, git_settings_table(),
        {flag_field("tokenlessAuthEnabled", &GitProjectSettings::tokenless_auth_enabled),
         flag_field("githubActionsOidcEnabled", &GitProjectSettings::github_actions_oidc_enabled),
         flag_field("gitlabCiOidcEnabled", &GitProjectSettings::gitlab_ci_oidc_enabled),
         flag_field("prCommentEnabled", &GitProjectSettings::pr_comment_enabled),
         {.name = "summaryCheck",
          .show = [](const GitProjectSettings& s, const Project&) { return Json(s.summary_check); },
          .change =
              [](GitProjectSettings& s, const Json& value, const Project&) {
                  s.summary_check = choice_setting("summaryCheck", value, summary_check_choices());
              }}});
}

}  // namespace loupe::git
