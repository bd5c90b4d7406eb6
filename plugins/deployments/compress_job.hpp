#pragma once
// The deployments.compress job, queued when a deployment is finalized: makes a gzip variant of
// each compressible content not looked at yet, stores it as a blob of its own, and marks the
// deployment compressed. Idempotent: a rerun finds the contents already checked.

#include <cstdint>

#include "loupe/host.hpp"

namespace loupe::deployments {

/// Compresses with libdeflate at `level`; keeps a variant only when it saves 10 % or more.
void compress_deployment(Host& host, int64_t deployment_id, int level);

}  // namespace loupe::deployments
