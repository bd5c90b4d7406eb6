#pragma once
// The deployments plugin's settings in the Project resource, each changeable by a PATCH of the
// project: `deploymentEnabled`, `deploymentProductionBranchGlob` and `deploymentAuth`.

#include "loupe/auth/project_fields.hpp"

namespace loupe::deployments {

void add_project_settings_fields(ProjectFields& fields);

}  // namespace loupe::deployments
