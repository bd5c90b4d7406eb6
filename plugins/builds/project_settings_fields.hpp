#pragma once
// The builds plugin's settings in the Project resource: `autoApprovedBranchGlob`,
// `ignoreConfig`, `retentionDays` and `quota`.

#include <cstdint>

#include "loupe/auth/project_fields.hpp"
#include "uploads/upload_policy.hpp"

namespace loupe::builds {

/// The writer of those fields; `default_retention_days` (0: builds are kept forever) and
/// `policy`'s quotas are the server's defaults, shown for projects without settings of their own.
ProjectFieldsWriter project_settings_fields(int64_t default_retention_days,
                                            const UploadPolicy& policy);

}  // namespace loupe::builds
