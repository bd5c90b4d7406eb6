#include "service/build_summary.hpp"

#include "build_resources.hpp"
#include "store/diffs.hpp"

namespace loupe::builds {

BuildSummary summarize(const Build& build, const StatusInputs& inputs) {
    BuildSummary summary;
    summary.id = build.id;
    summary.project_id = build.project_id;
    summary.number = build.number;
    summary.name = build.name;
    summary.commit = build.commit;
    summary.head_sha = build.pr_head_commit.value_or(build.commit);
    summary.branch = build.branch;
    summary.pr_number = build.pr_number;
    summary.mode = build.mode;
    summary.type = build.type;
    summary.conclusion = build.conclusion;
    summary.status = aggregated_status(build, inputs);
    summary.review_state = build.review_state;
    summary.stats = build.stats;
    summary.subset = build.subset;
    summary.merge_queue = build.merge_queue;
    summary.screenshot_count = build.screenshot_count;
    summary.base_build_id = build.base_build_id;
    summary.created_at = build.created_at;
    summary.concluded_at = build.concluded_at;
    return summary;
}

// One mapping from a build to what other plugins see: the facts are the summary's.
BuildFacts build_facts(const Build& build, const StatusInputs& inputs) {
    return facts_of(summarize(build, inputs));
}

std::vector<BuildSummary> summarize_builds(soci::session& session,
                                           const std::vector<Build>& builds) {
    const auto failed = builds_with_failed_diffs(session, builds_awaiting_diffs(builds));
    const int64_t now = now_ms();
    std::vector<BuildSummary> out;
    out.reserve(builds.size());
    for (const auto& build : builds) {
        out.push_back(summarize(build, status_inputs(build, failed, now)));
    }
    return out;
}

}  // namespace loupe::builds
