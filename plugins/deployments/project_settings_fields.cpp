#include "project_settings_fields.hpp"

#include "loupe/settings/project_setting_fields.hpp"
#include "store/settings.hpp"

namespace loupe::deployments {
namespace {

/// The most characters of a branch glob (as of a branch name).
constexpr std::size_t max_glob_length = 255;

}  // namespace

void add_project_settings_fields(ProjectFields& fields) {
    add_project_setting_fields<ProjectSettings>(
        fields, settings_table(),
        {{.name = "deploymentEnabled",
          .show = [](const ProjectSettings& s, const Project&) { return Json(s.enabled); },
          .change = [](ProjectSettings& s, const Json& value,
                       const Project&) { s.enabled = flag_setting("deploymentEnabled", value); }},
         {.name = "deploymentProductionBranchGlob",
          .show = [](const ProjectSettings& s, const Project& project) -> Json {
              return s.production_branch_glob.value_or(project.default_base_branch);
          },
          .change =
              [](ProjectSettings& s, const Json& value, const Project&) {
                  s.production_branch_glob = optional_text_setting("deploymentProductionBranchGlob",
                                                                   value, max_glob_length);
              }},
         {.name = "deploymentAuth",
          .show = [](const ProjectSettings& s, const Project&) { return Json(s.auth); },
          .change =
              [](ProjectSettings& s, const Json& value, const Project&) {
                  s.auth = choice_setting("deploymentAuth", value, site_auth_modes());
              }}});
}

}  // namespace loupe::deployments
