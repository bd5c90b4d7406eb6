#pragma once
// The builds plugin's settings in the Project resource: `autoApprovedBranchGlob`,
// `ignoreConfig` and `retentionDays`.

#include <cstdint>

#include "loupe/auth/project_fields.hpp"

namespace loupe::builds {

/// The writer of those fields; `default_retention_days` is the server's default (0: builds are
/// kept forever), shown for projects without a setting of their own.
ProjectFieldsWriter project_settings_fields(int64_t default_retention_days);

}  // namespace loupe::builds
