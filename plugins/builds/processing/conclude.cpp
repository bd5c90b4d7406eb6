#include "processing/conclude.hpp"

#include "store/screenshots.hpp"

namespace loupe::builds {

std::vector<DiffFacts> diff_facts(soci::session& session, const std::vector<DiffRow>& diffs) {
    std::vector<int64_t> ids;
    for (const auto& diff : diffs) {
        if (diff.head_screenshot_id) {
            ids.push_back(*diff.head_screenshot_id);
        }
    }
    // The metadata only matters for failure screenshots (their retries): read it for those.
    auto heads = screenshots_by_id(session, ids, ScreenshotFields::without_metadata);
    std::vector<int64_t> failures;
    for (const auto& [id, head] : heads) {
        if (is_failure_name(head.name)) {
            failures.push_back(id);
        }
    }
    for (auto& [id, failure] : screenshots_by_id(session, failures)) {
        heads[id] = std::move(failure);
    }
    std::vector<DiffFacts> facts;
    facts.reserve(diffs.size());
    for (const auto& diff : diffs) {
        DiffFacts f;
        f.has_base = diff.base_screenshot_id.has_value();
        f.score = diff.score;
        f.ignored = diff.ignored;
        if (diff.head_screenshot_id) {
            if (auto it = heads.find(*diff.head_screenshot_id); it != heads.end()) {
                f.has_head = true;
                f.head_name = it->second.name;
                f.head_metadata = it->second.metadata;
                f.head_has_parent = it->second.parent_name.has_value();
            }
        }
        facts.push_back(std::move(f));
    }
    return facts;
}

bool try_conclude(soci::session& session, Build& build, const BuildEvents& events) {
    if (build.conclusion || build.job_status != ProcessingState::complete ||
        pending_diff_count(session, build.id) > 0) {
        return false;
    }
    const auto facts = diff_facts(session, build_diffs(session, build.id));
    build.stats = compute_stats(facts);
    build.conclusion = compute_conclusion(build.stats, build.subset);
    build.concluded_at = now_ms();
    update_build_state(session, build);
    events.publish(session, BuildEvent::concluded, build);
    return true;
}

}  // namespace loupe::builds
