#include "retention/prune_builds.hpp"

#include <soci/soci.h>

#include <algorithm>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "store/project_blobs.hpp"
#include "store/retention.hpp"
#include "store/settings.hpp"

namespace loupe::builds {
namespace {

constexpr int64_t day_ms = 86'400'000;

struct ProjectPlan {
    std::vector<int64_t> order;               ///< the builds to delete, users before their baseline
    std::unordered_set<int64_t> as_baseline;  ///< kept only as a kept build's baseline
    int64_t kept_latest = 0;
};

ProjectPlan plan_project(const std::vector<BuildLink>& links, int64_t cutoff_ms) {
    ProjectPlan plan;
    std::map<std::pair<std::string, std::string>, int64_t> latest;
    std::unordered_map<int64_t, const BuildLink*> by_id;
    for (const auto& link : links) {
        auto& newest = latest[{link.name, link.branch}];
        newest = std::max(newest, link.id);
        by_id.emplace(link.id, &link);
    }
    // Kept for their own sake: recent builds and each branch's latest. Their baselines stay
    // too (the screenshots their diffs show), but only those: a build kept as a baseline does
    // not keep its own baseline, or a branch's whole history would stay forever.
    std::unordered_set<int64_t> kept;
    for (const auto& link : links) {
        const bool old = link.created_at < cutoff_ms;
        if (!old || latest[{link.name, link.branch}] == link.id) {
            kept.insert(link.id);
            plan.kept_latest += old ? 1 : 0;
        }
    }
    for (const auto& link : links) {
        if (kept.contains(link.id) && link.base_build_id && by_id.contains(*link.base_build_id) &&
            !kept.contains(*link.base_build_id)) {
            plan.as_baseline.insert(*link.base_build_id);
        }
    }
    // Deletion order: a build before its baseline (Kahn's order over the doomed builds,
    // newest first among those no other doomed build uses).
    std::unordered_map<int64_t, int> users;
    std::vector<int64_t> doomed;
    for (auto it = links.rbegin(); it != links.rend(); ++it) {
        if (!kept.contains(it->id) && !plan.as_baseline.contains(it->id)) {
            doomed.push_back(it->id);
            users.try_emplace(it->id, 0);
        }
    }
    for (const auto id : doomed) {
        if (const auto base = by_id.at(id)->base_build_id; base && users.contains(*base)) {
            ++users[*base];
        }
    }
    std::vector<int64_t> ready;
    for (const auto id : doomed) {
        if (users[id] == 0) {
            ready.push_back(id);
        }
    }
    std::unordered_set<int64_t> placed;
    for (std::size_t i = 0; i < ready.size(); ++i) {
        plan.order.push_back(ready[i]);
        placed.insert(ready[i]);
        const auto base = by_id.at(ready[i])->base_build_id;
        if (base && users.contains(*base) && --users[*base] == 0) {
            ready.push_back(*base);
        }
    }
    for (const auto id : doomed) {  // a cycle cannot happen; if one did, it goes last
        if (!placed.contains(id)) {
            plan.order.push_back(id);
        }
    }
    return plan;
}

struct BatchOutcome {
    std::vector<int64_t> deleted;
    std::vector<int64_t> blocked;  ///< found in use: kept
    DeletedBuildRows rows;
    DeletedRows other_rows;
    std::vector<std::string> blob_keys;  ///< held by the deleted builds (dry runs collect them)
};

class ProjectPruner {
public:
    ProjectPruner(Host& host, const BuildDeletionImpl& deletion, int64_t project_id,
                  ProjectPlan plan)
        : host_(host),
          deletion_(deletion),
          project_id_(project_id),
          order_(std::move(plan.order)),
          as_baseline_(std::move(plan.as_baseline)) {}

    /// Deletes one batch in `session` (inside the caller's transaction).
    BatchOutcome delete_batch(soci::session& session, const std::vector<int64_t>& batch,
                              const std::unordered_set<int64_t>& remaining,
                              const std::unordered_set<int64_t>& gone, bool collect_keys) {
        BatchOutcome outcome;
        lock_builds(session, host_.db().dialect(), batch);
        // A build that stays for its own sake (recent, a branch's latest, or one processed
        // since the plan was made) and uses a doomed build keeps it. Doomed users and builds
        // kept only as baselines do not.
        std::set<int64_t> blocked;
        for (const auto& [used, user] : uses_of_builds(session, batch)) {
            if (!remaining.contains(user) && !gone.contains(user) && !as_baseline_.contains(user)) {
                blocked.insert(used);
            }
        }
        for (const auto id : batch) {
            (blocked.contains(id) ? outcome.blocked : outcome.deleted).push_back(id);
        }
        if (outcome.deleted.empty()) {
            return outcome;
        }
        std::vector<std::string> keys = blob_keys_of_builds(session, outcome.deleted);
        DeletedBuilds deleted{project_id_, outcome.deleted,
                              diff_ids_of_builds(session, outcome.deleted)};
        outcome.other_rows = deletion_.notify(session, deleted);
        outcome.rows = delete_builds(session, outcome.deleted);
        // Files no remaining build of the project names are no longer the project's: naming
        // them again takes an upload (and they stop counting against its storage quota).
        release_unreferenced(session, project_id_, keys);
        if (collect_keys) {
            outcome.blob_keys = std::move(keys);
        }
        return outcome;
    }

    /// Runs every batch; returns the outcomes in order.
    void run(BuildPruneReport& report, bool dry_run, std::size_t batch_size) {
        if (order_.empty()) {
            return;
        }
        if (dry_run) {
            run_dry(report, batch_size);
            return;
        }
        std::unordered_set<int64_t> remaining(order_.begin(), order_.end());
        std::unordered_set<int64_t> gone;
        for (std::size_t begin = 0; begin < order_.size(); begin += batch_size) {
            const auto batch = next_batch(begin, batch_size, remaining);
            if (batch.empty()) {
                continue;
            }
            const auto outcome = host_.db().transaction([&](soci::session& session) {
                return delete_batch(session, batch, remaining, gone, false);
            });
            settle(report, outcome, remaining, gone, batch);
        }
    }

private:
    std::vector<int64_t> next_batch(std::size_t begin, std::size_t size,
                                    const std::unordered_set<int64_t>& remaining) const {
        std::vector<int64_t> batch;
        for (std::size_t i = begin; i < std::min(order_.size(), begin + size); ++i) {
            if (remaining.contains(order_[i])) {
                batch.push_back(order_[i]);
            }
        }
        return batch;
    }

    void settle(BuildPruneReport& report, const BatchOutcome& outcome,
                std::unordered_set<int64_t>& remaining, std::unordered_set<int64_t>& gone,
                const std::vector<int64_t>& batch) {
        for (const auto id : batch) {
            remaining.erase(id);
        }
        as_baseline_.insert(outcome.blocked.begin(), outcome.blocked.end());
        gone.insert(outcome.deleted.begin(), outcome.deleted.end());
        report.kept_baselines += static_cast<int64_t>(outcome.blocked.size());
        report.builds += outcome.rows.builds;
        report.screenshots += outcome.rows.screenshots;
        report.diffs += outcome.rows.diffs;
        report.baseline_diffs += outcome.rows.other_diffs;
        report.shards += outcome.rows.shards;
        for (const auto& [name, count] : outcome.other_rows) {
            report.other_rows[name] += count;
        }
    }

    /// One transaction for every batch, rolled back at the end: the counts are what a real run
    /// would delete, and the blobs the deleted rows held are checked against what remains.
    void run_dry(BuildPruneReport& report, std::size_t batch_size) {
        struct RolledBack {
            BuildPruneReport report;
        };
        try {
            host_.db().transaction([&](soci::session& session) {
                BuildPruneReport trial = report;
                std::unordered_set<int64_t> remaining(order_.begin(), order_.end());
                std::unordered_set<int64_t> gone;
                std::vector<std::string> keys;
                for (std::size_t begin = 0; begin < order_.size(); begin += batch_size) {
                    const auto batch = next_batch(begin, batch_size, remaining);
                    if (batch.empty()) {
                        continue;
                    }
                    auto outcome = delete_batch(session, batch, remaining, gone, true);
                    keys.insert(keys.end(), outcome.blob_keys.begin(), outcome.blob_keys.end());
                    settle(trial, outcome, remaining, gone, batch);
                }
                std::sort(keys.begin(), keys.end());
                keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
                const auto still_used = host_.blob_references().referenced(session, keys);
                for (auto& key : keys) {
                    if (!still_used.contains(key)) {
                        trial.released_blobs.push_back(std::move(key));
                    }
                }
                throw RolledBack{std::move(trial)};
            });
        } catch (RolledBack& done) {
            report = std::move(done.report);
        }
    }

    Host& host_;
    const BuildDeletionImpl& deletion_;
    int64_t project_id_;
    std::vector<int64_t> order_;
    std::unordered_set<int64_t> as_baseline_;
};

}  // namespace

BuildPruneReport prune_builds(Host& host, const BuildDeletionImpl& deletion,
                              const BuildPruneOptions& options) {
    BuildPruneReport report;
    std::vector<int64_t> projects;
    std::map<int64_t, BuildSettings> settings;
    {
        auto session = host.db().session();
        projects = options.project_id ? std::vector<int64_t>{*options.project_id}
                                      : projects_with_builds(*session);
        settings = build_settings_of(*session, projects);
    }
    for (const auto project_id : projects) {
        const auto days =
            settings.at(project_id).retention_days.value_or(options.default_retention_days);
        if (days <= 0) {
            continue;
        }
        ++report.projects;
        std::vector<BuildLink> links;
        {
            auto session = host.db().session();
            links = project_build_links(*session, project_id);
        }
        auto plan = plan_project(links, options.now_ms - days * day_ms);
        report.kept_latest += plan.kept_latest;
        report.kept_baselines += static_cast<int64_t>(plan.as_baseline.size());
        ProjectPruner(host, deletion, project_id, std::move(plan))
            .run(report, options.dry_run, std::max<std::size_t>(1, options.batch_size));
    }
    host.log().info("builds.pruned", {{"builds", std::to_string(report.builds)},
                                      {"screenshots", std::to_string(report.screenshots)},
                                      {"dry_run", options.dry_run ? "true" : "false"}});
    return report;
}

}  // namespace loupe::builds
