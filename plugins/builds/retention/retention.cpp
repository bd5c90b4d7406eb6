#include "retention/retention.hpp"

#include <sstream>

namespace loupe::builds {

RetentionReport Retention::run(const RetentionOptions& options) {
    RetentionReport report;
    report.dry_run = options.dry_run;
    BuildPruneOptions prune;
    prune.dry_run = options.dry_run;
    prune.project_id = options.project_id;
    prune.default_retention_days = default_days_;
    prune.now_ms = now_ms();
    report.builds = prune_builds(host_, deletion_, prune);
    if (sweep_ != nullptr && options.sweep_blobs) {
        BlobSweepOptions sweep;
        sweep.dry_run = options.dry_run;
        sweep.assume_unreferenced = report.builds.released_blobs;
        report.blobs = sweep_->sweep(sweep);
    }
    return report;
}

Json RetentionReport::to_json() const {
    Json rows = Json::object();
    for (const auto& [name, count] : builds.other_rows) {
        rows[name] = count;
    }
    Json json = {{"dryRun", dry_run},
                 {"projects", builds.projects},
                 {"builds", builds.builds},
                 {"screenshots", builds.screenshots},
                 {"diffs", builds.diffs},
                 {"shards", builds.shards},
                 {"otherRows", rows},
                 {"keptLatest", builds.kept_latest},
                 {"keptBaselines", builds.kept_baselines},
                 {"baselineDiffs", builds.baseline_diffs},
                 {"blobs", nullptr}};
    if (blobs) {
        json["blobs"] = {{"swept", blobs->swept},
                         {"refusal", blobs->swept ? Json(nullptr) : Json(blobs->refusal)},
                         {"stored", blobs->stored},
                         {"recent", blobs->recent},
                         {"referenced", blobs->referenced},
                         {"removed", blobs->removed},
                         {"bytesRemoved", blobs->removed_bytes},
                         {"restored", blobs->restored},
                         {"waiting", blobs->waiting},
                         {"staleUploads", blobs->stale_uploads}};
    }
    return json;
}

std::string RetentionReport::to_text() const {
    std::ostringstream out;
    out << (dry_run ? "would prune " : "pruned ") << builds.builds << " build(s) in "
        << builds.projects << " project(s) with a retention: " << builds.screenshots
        << " screenshot(s), " << builds.diffs << " diff(s), " << builds.shards << " shard(s)";
    for (const auto& [name, count] : builds.other_rows) {
        out << ", " << count << " " << name;
    }
    out << "\nkept " << builds.kept_latest << " old build(s) as their branch's latest and "
        << builds.kept_baselines << " as baselines of kept builds";
    if (builds.baseline_diffs > 0) {
        out << " (" << builds.baseline_diffs << " of their diffs against pruned builds removed)";
    }
    out << "\n";
    if (!blobs) {
        out << "blobs: not swept\n";
    } else if (!blobs->swept) {
        out << "blobs: " << blobs->refusal << "\n";
    } else {
        out << "blobs: " << (dry_run ? "would remove " : "removed ") << blobs->removed << " ("
            << blobs->removed_bytes << " bytes) of " << blobs->stored << " stored; kept "
            << blobs->referenced << " referenced and " << blobs->recent << " written too recently; "
            << blobs->restored << " restored, " << blobs->waiting << " waiting in quarantine, "
            << blobs->stale_uploads << " abandoned upload(s) removed\n";
    }
    return out.str();
}

}  // namespace loupe::builds
