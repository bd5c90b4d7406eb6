#include "project_settings_fields.hpp"

#include "store/settings.hpp"

namespace loupe::deployments {

void write_project_settings_fields(soci::session& session, const std::vector<Project>& projects,
                                   std::vector<Json>& resources) {
    std::vector<int64_t> ids;
    for (const auto& project : projects) {
        ids.push_back(project.id);
    }
    const auto settings = load_settings(session, ids);
    for (std::size_t i = 0; i < projects.size(); ++i) {
        const auto& s = settings.at(projects[i].id);
        resources[i]["deploymentEnabled"] = s.enabled;
        resources[i]["deploymentProductionBranchGlob"] =
            s.production_branch_glob.value_or(projects[i].default_base_branch);
        resources[i]["deploymentAuth"] = s.auth;
    }
}

}  // namespace loupe::deployments
