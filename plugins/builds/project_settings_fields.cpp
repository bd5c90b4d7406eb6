#include "project_settings_fields.hpp"

#include "store/settings.hpp"

namespace loupe::builds {

ProjectFieldsWriter project_settings_fields(int64_t default_retention_days,
                                            const UploadPolicy& policy) {
    return [default_retention_days, policy](soci::session& session,
                                            const std::vector<Project>& projects,
                                            std::vector<Json>& resources) {
        std::vector<int64_t> ids;
        for (const auto& project : projects) {
            ids.push_back(project.id);
        }
        const auto settings = build_settings_of(session, ids);
        for (std::size_t i = 0; i < projects.size(); ++i) {
            const auto& s = settings.at(projects[i].id);
            const auto changes = s.auto_ignore_changes.value_or(0);
            resources[i]["autoApprovedBranchGlob"] =
                s.auto_approved_branch_glob.value_or(projects[i].default_base_branch);
            resources[i]["ignoreConfig"] = {
                {"enabled", s.ignore_enabled},
                {"autoIgnore", changes > 0 ? Json{{"changes", changes}} : Json(nullptr)}};
            // Days builds are kept; null when they are kept forever.
            const auto days = s.retention_days.value_or(default_retention_days);
            resources[i]["retentionDays"] = days > 0 ? Json(days) : Json(nullptr);
            const ProjectQuotas quotas = quotas_of(s, policy);
            const auto limit = [](int64_t value) {
                return value > 0 ? Json(value) : Json(nullptr);
            };
            resources[i]["quota"] = {
                {"maxStoredBytes", limit(quotas.max_stored_bytes)},
                {"maxScreenshotsPerBuild", limit(quotas.max_screenshots_per_build)}};
        }
    };
}

}  // namespace loupe::builds
