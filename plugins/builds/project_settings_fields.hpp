#pragma once
// The builds plugin's settings in the Project resource: `autoApprovedBranchGlob`,
// `ignoreConfig` (both changeable by a PATCH of the project) and `retentionDays` (set with
// `loupe admin retention`).

#include <cstdint>

#include "loupe/auth/project_fields.hpp"

namespace loupe::builds {

/// Registers those fields; `default_retention_days` is the server's default (0: builds are kept
/// forever), shown for projects without a setting of their own.
void add_project_settings_fields(ProjectFields& fields, int64_t default_retention_days);

}  // namespace loupe::builds
