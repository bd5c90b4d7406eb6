#pragma once
// The reviews plugin's endpoints, one per file.

#include "comment_place.hpp"
#include "loupe/builds/builds_service.hpp"
#include "loupe/host.hpp"
#include "review_recorder.hpp"

namespace loupe::reviews {

/// POST /projects/{owner}/{project}/builds/{buildNumber}/reviews
void add_create_review(Host& host, builds::BuildsService& builds, ReviewRecorder& recorder);
/// GET /projects/{owner}/{project}/builds/{buildNumber}/reviews
void add_list_reviews(Host& host, builds::BuildsService& builds);
/// POST /projects/{owner}/{project}/builds/{buildNumber}/reviews/{reviewId}/dismiss
void add_dismiss_review(Host& host, builds::BuildsService& builds, ReviewRecorder& recorder);
// The comment routes are registered under each kind of place (a build, a test).
/// POST …/comments
void add_create_comment(Host& host, builds::BuildsService& builds, ReviewRecorder& recorder,
                        const std::vector<CommentPlaceKind>& kinds);
/// GET …/comments and GET …/comments/{commentId}
void add_read_comments(Host& host, const std::vector<CommentPlaceKind>& kinds);
/// PATCH and DELETE …/comments/{commentId}
void add_edit_comment(Host& host, const std::vector<CommentPlaceKind>& kinds);
/// POST and DELETE …/comments/{commentId}/reactions
void add_comment_reactions(Host& host, const std::vector<CommentPlaceKind>& kinds);
/// POST …/comments/{commentId}/resolve|unresolve, POST and DELETE
/// …/comments/{commentId}/subscription
void add_comment_threads(Host& host, const std::vector<CommentPlaceKind>& kinds);
/// POST and DELETE /projects/{owner}/{project}/tests/{testId}/subscription
void add_test_subscription(Host& host, const CommentPlaceKind& tests);
/// POST and DELETE /projects/{owner}/{project}/builds/{buildNumber}/subscription
void add_build_subscription(Host& host, builds::BuildsService& builds);
/// GET, POST and DELETE /projects/{owner}/{project}/builds/{buildNumber}/reviewers
void add_build_reviewers(Host& host, builds::BuildsService& builds, ReviewRecorder& recorder);
/// GET /_loupe/reviews/waiting: the builds waiting for the caller's review.
void add_waiting_reviews(Host& host, builds::BuildsService& builds);

}  // namespace loupe::reviews
