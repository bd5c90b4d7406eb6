#pragma once
// The builds plugin's settings in the Project resource: `autoApprovedBranchGlob`,
// `ignoreConfig` (both changeable by a PATCH of the project), `retentionDays` (set with
// `loupe admin retention`) and `quota` (set with `loupe admin quota`).

#include <cstdint>

#include "loupe/auth/project_fields.hpp"
#include "uploads/upload_policy.hpp"

namespace loupe::builds {

/// Registers those fields; `default_retention_days` (0: builds are kept forever) and `policy`'s
/// quotas are the server's defaults, shown for projects without settings of their own.
void add_project_settings_fields(ProjectFields& fields, int64_t default_retention_days,
                                 const UploadPolicy& policy);

}  // namespace loupe::builds
