#include "auto_approval.hpp"

#include <algorithm>
#include <set>

#include "review_state.hpp"

namespace loupe::reviews {
namespace {

constexpr int branch_history = 20;

// What identifies a change across builds: its fingerprint, else the head file (added or changed
// without a mask), else the removed screenshot's name.
std::string change_key(const builds::DiffSummary& diff) {
    if (diff.fingerprint) {
        return "fingerprint:" + *diff.fingerprint;
    }
    if (diff.head_key) {
        return "file:" + *diff.head_key;
    }
    return "removed:" + diff.name;
}

std::set<std::string> reviewable_changes(soci::session& session, builds::BuildsService& builds,
                                         int64_t build_id) {
    std::set<std::string> keys;
    for (const auto& diff : builds.build_diffs(session, build_id)) {
        if (diff.needs_review) {
            keys.insert(change_key(diff));
        }
    }
    return keys;
}

}  // namespace

void carry_approvals_forward(soci::session& session, builds::BuildsService& builds,
                             ReviewRecorder& recorder, const builds::BuildSummary& build) {
    if (build.conclusion != builds::Conclusion::changes_detected || build.merge_queue) {
        return;
    }
    std::optional<builds::BuildSummary> approved;
    for (const auto& earlier : builds.branch_builds(session, build.project_id, build.name,
                                                    build.branch, branch_history)) {
        if (earlier.id < build.id && earlier.conclusion == builds::Conclusion::changes_detected &&
            earlier.review_state == builds::ReviewState::accepted) {
            approved = earlier;
            break;
        }
    }
    if (!approved) {
        return;
    }
    const auto changes = reviewable_changes(session, builds, build.id);
    const auto accepted_changes = reviewable_changes(session, builds, approved->id);
    if (changes.empty() || !std::includes(accepted_changes.begin(), accepted_changes.end(),
                                          changes.begin(), changes.end())) {
        return;
    }
    const auto existing = build_reviews(session, build.id);
    std::set<int64_t> reviewed;
    for (const auto& review : existing) {
        if (review.user_id) {
            reviewed.insert(*review.user_id);
        }
    }
    const auto earlier_reviews = build_reviews(session, approved->id);
    const int64_t now = now_ms();
    std::vector<Review> carried;
    for (const auto* source : counting_reviews(earlier_reviews)) {
        if (source->state != "approved" || reviewed.contains(*source->user_id)) {
            continue;
        }
        Review review;
        review.build_id = build.id;
        review.project_id = build.project_id;
        review.user_id = source->user_id;
        review.state = "approved";
        review.inherited_from = source->id;
        review.created_at = now;
        review.submitted_at = now;
        insert_review(session, review);
        carried.push_back(review);
    }
    if (carried.empty()) {
        return;
    }
    const auto reviewed_build = recorder.record_state(session, build.id);
    for (const auto& review : carried) {
        recorder.review_submitted(session, review, reviewed_build);
    }
}

}  // namespace loupe::reviews
