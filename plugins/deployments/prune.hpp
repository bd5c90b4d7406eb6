#pragma once
// Retention: deletes deployments older than a cutoff, then the blobs nothing references any
// more (no remaining deployment, and no other plugin's rows: screenshots, traces, diff masks).
// The rows go in one transaction; the blobs are removed after it committed (a crash in between
// leaves unreferenced blobs behind, never a row without its blob).

#include <cstdint>
#include <string>

#include "loupe/host.hpp"

namespace loupe::deployments {

struct PruneOptions {
    int64_t cutoff_ms = 0;      ///< deployments created before this go
    bool keep_aliased = false;  ///< except those an alias points at
    bool dry_run = false;       ///< report only; nothing is deleted
};

struct PruneReport {
    int64_t deployments = 0;
    int64_t files = 0;
    int64_t blobs = 0;       ///< blobs removed (or that would be)
    int64_t blob_bytes = 0;  ///< their total size
    int64_t blobs_kept = 0;  ///< contents of pruned deployments still referenced elsewhere
};

PruneReport prune_deployments(Host& host, const PruneOptions& options);

}  // namespace loupe::deployments
