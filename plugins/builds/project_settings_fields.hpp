#pragma once
// The builds plugin's settings in the Project resource: `autoApprovedBranchGlob` and
// `ignoreConfig`.

#include "loupe/auth/project_fields.hpp"

namespace loupe::builds {

void write_project_settings_fields(soci::session& session, const std::vector<Project>& projects,
                                   std::vector<Json>& resources);

}  // namespace loupe::builds
