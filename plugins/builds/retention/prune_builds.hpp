#pragma once
// Retention of builds: deletes the builds older than their project's retention, except each
// branch's latest build (per build name) and the baseline of every build kept for its own sake
// (a recent build, or a branch's latest): the screenshots its diffs show. A build kept only as
// a baseline does not keep its own baseline (or a branch's whole history would stay): when
// that goes, so do the kept build's diffs against it, and it keeps its screenshots. Other
// plugins delete their own rows about the pruned builds through BuildDeletion observers.
//
// Builds go in batches, one transaction each, users before the builds they use: each batch
// locks its builds and checks again, in the transaction, that no build kept for its own sake
// uses one of them (a build processed meanwhile may have chosen an old build as its baseline;
// processing locks the baseline it chose, so one of the two waits for the other). A build found
// in use is kept as a baseline.

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "loupe/host.hpp"
#include "service/build_deletion_impl.hpp"

namespace loupe::builds {

struct BuildPruneOptions {
    bool dry_run = false;                ///< count only: every deletion is rolled back
    std::optional<int64_t> project_id;   ///< only this project
    int64_t default_retention_days = 0;  ///< for projects without their own (0: keep forever)
    int64_t now_ms = 0;
    std::size_t batch_size = 25;  ///< builds per transaction
};

struct BuildPruneReport {
    int64_t projects = 0;  ///< projects with a retention
    int64_t builds = 0;
    int64_t screenshots = 0;
    int64_t diffs = 0;
    int64_t shards = 0;
    int64_t kept_latest = 0;     ///< past the retention, kept as their branch's latest
    int64_t kept_baselines = 0;  ///< past the retention, kept as a kept build's baseline
    int64_t baseline_diffs = 0;  ///< diffs of builds kept as baselines, against pruned builds
    std::map<std::string, int64_t> other_rows;  ///< other plugins' rows (reviews, comments...)
    /// Dry run: the blobs that only the pruned builds reference (the sweep would free them).
    std::vector<std::string> released_blobs;
};

BuildPruneReport prune_builds(Host& host, const BuildDeletionImpl& deletion,
                              const BuildPruneOptions& options);

}  // namespace loupe::builds
