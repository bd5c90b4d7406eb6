#include "service/build_events.hpp"

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

void BuildEvents::notify(soci::session& session, BuildEvent event, const Build& build,
                         bool diff_failed) const {
    if (observers_.empty()) {
        return;
    }
    StatusInputs inputs;
    inputs.now_ms = now_ms();
    inputs.diff_job_failed = diff_failed;
    const auto summary = summarize(build, inputs);
    for (const auto& observer : observers_) {
        observer(session, event, summary);
    }
}

}  // namespace loupe::builds
