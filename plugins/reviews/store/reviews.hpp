#pragma once
// Review rows: a user's decision on a build (approved, rejected, commented) or their draft
// (pending), its per-snapshot decisions and its dismissal.

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace soci {
class session;
}

namespace loupe::reviews {

struct Review {
    int64_t id = 0;
    int64_t build_id = 0;
    int64_t project_id = 0;
    std::optional<int64_t> user_id;
    std::string state;  ///< pending | approved | rejected | commented
    std::optional<int64_t> inherited_from;
    std::optional<int64_t> dismissed_at;
    std::optional<int64_t> dismissed_by;
    int64_t created_at = 0;
    std::optional<int64_t> submitted_at;
};

struct SnapshotDecision {
    int64_t diff_id = 0;
    std::string conclusion;  ///< approved | rejected
};

/// Inserts the review; fills its id.
void insert_review(soci::session& session, Review& review);
std::optional<Review> find_review(soci::session& session, int64_t id, bool for_update = false);
/// The user's draft (pending) review of the build, if any.
std::optional<Review> pending_review(soci::session& session, int64_t build_id, int64_t user_id);
/// Turns a draft into a submitted review with `state`.
void submit_review(soci::session& session, int64_t review_id, const std::string& state, int64_t at);
void dismiss_review(soci::session& session, int64_t review_id, int64_t by_user, int64_t at);
/// Every review of the build, oldest first (creation time, then id).
std::vector<Review> build_reviews(soci::session& session, int64_t build_id);
/// Stores (replaces) the review's per-snapshot decisions.
void save_snapshot_decisions(soci::session& session, int64_t review_id,
                             const std::vector<SnapshotDecision>& decisions);
/// The per-snapshot decisions of these reviews: (review id, decision), by review then diff.
std::vector<std::pair<int64_t, SnapshotDecision>> snapshot_decisions(
    soci::session& session, const std::vector<int64_t>& review_ids);

}  // namespace loupe::reviews
