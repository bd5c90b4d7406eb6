#include "prune.hpp"

#include <soci/soci.h>

#include "store/retention.hpp"

namespace loupe::deployments {
namespace {

/// Unwinds a dry run's transaction (so it rolls back) with what it would have done.
struct DryRunDone {
    PruneReport report;
    std::vector<std::string> removable;
};

}  // namespace

PruneReport prune_deployments(Host& host, const PruneOptions& options) {
    PruneReport report;
    std::vector<std::string> removable;
    try {
        host.db().transaction([&](soci::session& session) {
            report = PruneReport{};
            const auto ids =
                deployments_created_before(session, options.cutoff_ms, options.keep_aliased);
            report.deployments = static_cast<int64_t>(ids.size());
            const auto hashes = delete_deployments(session, ids, report.files);
            const auto released = unregister_unused_contents(session, hashes);
            const auto in_use = host.blob_references().referenced(session, released);
            removable.clear();
            for (const auto& key : released) {
                if (!in_use.contains(key)) {
                    removable.push_back(key);
                }
            }
            report.blobs_kept = static_cast<int64_t>(released.size() - removable.size());
            if (options.dry_run) {
                throw DryRunDone{report, removable};
            }
        });
    } catch (const DryRunDone& done) {
        report = done.report;
        removable = done.removable;
    }
    for (const auto& key : removable) {
        const auto info = host.blobs().stat(key);
        if (!info) {
            continue;
        }
        if (options.dry_run || host.blobs().remove(key)) {
            ++report.blobs;
            report.blob_bytes += static_cast<int64_t>(info->size);
        }
    }
    host.log().info("deployments.pruned", {{"deployments", std::to_string(report.deployments)},
                                           {"blobs", std::to_string(report.blobs)},
                                           {"dry_run", options.dry_run ? "true" : "false"}});
    return report;
}

}  // namespace loupe::deployments
