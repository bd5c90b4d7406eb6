#pragma once
// The users asked to review a build (build_requested_reviewers). Requests are keyed by the
// users' personal account ids, the `id` the API shows for a user.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace soci {
class session;
}

namespace loupe::reviews {

/// A requested reviewer as the API shows a user: personal account id, slug, display name.
struct RequestedReviewer {
    int64_t user_id = 0;
    int64_t account_id = 0;
    std::string slug;
    std::string name;
};

/// The build's requested reviewers, oldest request first.
std::vector<RequestedReviewer> requested_reviewers(soci::session& session, int64_t build_id);

/// The users whose personal accounts are `account_ids` (ids naming no user are left out), each
/// once.
std::vector<int64_t> users_of_accounts(soci::session& session,
                                       const std::vector<int64_t>& account_ids);

/// Records a request of `user_id`; a user already requested keeps their request untouched.
/// Returns whether the request is new.
bool request_reviewer(soci::session& session, int64_t build_id, int64_t user_id,
                      int64_t requested_by);

/// Whether the user owns the account or is a member of its team.
bool belongs_to_account(soci::session& session, int64_t account_id, int64_t user_id);

/// A build `user_id` was asked to review and has not decided on yet (no approval or change
/// request of theirs that stands).
struct WaitingReview {
    int64_t build_id = 0;
    int64_t requested_at = 0;
    std::optional<int64_t> requested_by;
};

/// The builds waiting for `user_id`'s review, the oldest request first, at most `limit`.
std::vector<WaitingReview> waiting_reviews(soci::session& session, int64_t user_id, int limit);

/// Cancels the request of `user_id`, if any.
void cancel_reviewer(soci::session& session, int64_t build_id, int64_t user_id);

}  // namespace loupe::reviews
