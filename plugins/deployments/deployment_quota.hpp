#pragma once
// The limits of one deployment (plugins.deployments.max_files, max_bytes): 413 above them.

#include <cstdint>

#include "plugin_context.hpp"

namespace loupe::deployments {

/// At creation: the files declared and the sum of their declared sizes.
void check_declared(int64_t files, int64_t declared_bytes, const DeploymentQuota& quota);
/// At finalization: the sizes the blob store reported.
void check_stored_bytes(int64_t bytes, const DeploymentQuota& quota);

}  // namespace loupe::deployments
