#pragma once
// One retention run, as `loupe admin prune` and the daily job do it: prune the builds past
// their project's retention, then sweep the blobs nothing references any more (the core's
// BlobSweep; a dry run counts the blobs the pruned builds alone hold as freed too).

#include <cstdint>
#include <optional>
#include <string>

#include "loupe/blob/blob_sweep.hpp"
#include "loupe/host.hpp"
#include "retention/prune_builds.hpp"
#include "service/build_deletion_impl.hpp"

namespace loupe::builds {

/// The longest retention a project may ask for (a hundred years); 0 keeps builds forever.
inline constexpr int64_t max_retention_days = 36500;

struct RetentionOptions {
    bool dry_run = false;
    std::optional<int64_t> project_id;  ///< prune only this project's builds
    bool sweep_blobs = true;
};

struct RetentionReport {
    bool dry_run = false;
    BuildPruneReport builds;
    std::optional<BlobSweepReport> blobs;  ///< absent when not swept (no sweep service, or off)

    Json to_json() const;
    /// Lines for a person: what was (or would be) freed.
    std::string to_text() const;
};

class Retention {
public:
    /// `sweep` may be null (no blob sweep then). `default_days`: plugins.builds.retention_days.
    Retention(Host& host, const BuildDeletionImpl& deletion, BlobSweep* sweep, int64_t default_days)
        : host_(host), deletion_(deletion), sweep_(sweep), default_days_(default_days) {}

    RetentionReport run(const RetentionOptions& options);
    int64_t default_days() const { return default_days_; }

private:
    Host& host_;
    const BuildDeletionImpl& deletion_;
    BlobSweep* sweep_;
    int64_t default_days_;
};

}  // namespace loupe::builds
