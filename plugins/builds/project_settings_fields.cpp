#include "project_settings_fields.hpp"

#include "loupe/http/http_error.hpp"
#include "loupe/settings/project_setting_fields.hpp"
#include "retention/retention.hpp"
#include "store/settings.hpp"

namespace loupe::builds {
namespace {

/// The most characters of a branch glob (as of a branch name).
constexpr std::size_t max_glob_length = 255;
/// The most appearances auto-ignore may wait for.
constexpr int64_t max_auto_ignore_changes = 100;

Json ignore_config(const BuildSettings& settings) {
    const auto changes = settings.auto_ignore_changes.value_or(0);
    return {{"enabled", settings.ignore_enabled},
            {"autoIgnore", changes > 0 ? Json{{"changes", changes}} : Json(nullptr)}};
}

/// `{enabled: boolean, autoIgnore: {changes: int} | null}`, the shape the resource shows.
void change_ignore_config(BuildSettings& settings, const Json& value) {
    if (!value.is_object()) {
        Validation validation;
        validation.add("ignoreConfig", expected_message("object", &value));
        validation.throw_if_any();
    }
    settings.ignore_enabled =
        flag_setting("ignoreConfig.enabled", value.contains("enabled") ? value["enabled"] : Json());
    const Json auto_ignore = value.contains("autoIgnore") ? value["autoIgnore"] : Json();
    if (auto_ignore.is_null()) {
        settings.auto_ignore_changes.reset();
        return;
    }
    if (!auto_ignore.is_object()) {
        Validation validation;
        validation.add("ignoreConfig.autoIgnore", expected_message("object", &auto_ignore));
        validation.throw_if_any();
    }
    settings.auto_ignore_changes =
        integer_setting("ignoreConfig.autoIgnore.changes",
                        auto_ignore.contains("changes") ? auto_ignore["changes"] : Json(), 1,
                        max_auto_ignore_changes);
}

}  // namespace

void add_project_settings_fields(ProjectFields& fields, int64_t default_retention_days,
                                 const UploadPolicy& policy) {
    add_project_setting_fields<BuildSettings>(
        fields, build_settings_table(),
        {{.name = "autoApprovedBranchGlob",
          .show = [](const BuildSettings& s, const Project& project) -> Json {
              return s.auto_approved_branch_glob.value_or(project.default_base_branch);
          },
          .change =
              [](BuildSettings& s, const Json& value, const Project&) {
                  s.auto_approved_branch_glob =
                      optional_text_setting("autoApprovedBranchGlob", value, max_glob_length);
              }},
         // Loupe's: a merged pull request's builds count as approved baselines (Argos always
         // does so).
         {.name = "mergedPullRequestApproval",
          .show = [](const BuildSettings& s, const Project&) -> Json {
              return s.merged_pull_request_approval;
          },
          .change =
              [](BuildSettings& s, const Json& value, const Project&) {
                  s.merged_pull_request_approval = flag_setting("mergedPullRequestApproval", value);
              }},
         {.name = "ignoreConfig",
          .show = [](const BuildSettings& s, const Project&) { return ignore_config(s); },
          .change = [](BuildSettings& s, const Json& value,
                       const Project&) { change_ignore_config(s, value); }},
         // Days builds are kept; null when they are kept forever.
         {.name = "retentionDays",
          .show =
              [default_retention_days](const BuildSettings& s, const Project&) {
                  const auto days = s.retention_days.value_or(default_retention_days);
                  return days > 0 ? Json(days) : Json(nullptr);
              },
          // null restores the server's default; 0 keeps the builds forever.
          .change =
              [](BuildSettings& s, const Json& value, const Project&) {
                  if (value.is_null()) {
                      s.retention_days.reset();
                  } else {
                      s.retention_days =
                          integer_setting("retentionDays", value, 0, max_retention_days);
                  }
              }},
         // The project's limits (null: none), set with `loupe admin quota`.
         {.name = "quota", .show = [policy](const BuildSettings& s, const Project&) -> Json {
              const ProjectQuotas quotas = quotas_of(s, policy);
              const auto limit = [](int64_t value) {
                  return value > 0 ? Json(value) : Json(nullptr);
              };
              return {{"maxStoredBytes", limit(quotas.max_stored_bytes)},
                      {"maxScreenshotsPerBuild", limit(quotas.max_screenshots_per_build)}};
          }}});
}

}  // namespace loupe::builds
