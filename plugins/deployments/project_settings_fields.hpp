#pragma once
// The deployments plugin's settings in the Project resource: `deploymentEnabled`,
// `deploymentProductionBranchGlob` and `deploymentAuth`.

#include "loupe/auth/project_fields.hpp"

namespace loupe::deployments {

void write_project_settings_fields(soci::session& session, const std::vector<Project>& projects,
                                   std::vector<Json>& resources);

}  // namespace loupe::deployments
