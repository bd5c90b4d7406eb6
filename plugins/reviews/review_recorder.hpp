#pragma once
// What the reviews plugin records and announces when reviews and comments change, in the
// caller's transaction:
//   - a build's review state, computed again from all its reviews after any change to them and
//     set on the build (through the builds plugin's BuildReviewStates); when it changed, the
//     event build.review_state_changed;
//   - review.submitted for a submitted (or carried-forward) review;
//   - comment.created for a build's comment that became visible, test_comment.created for a
//     test's;
//   - review.requested for users newly asked to review a build.
// The events are declared by the constructor (install() only).

#include <cstdint>
#include <vector>

#include "loupe/builds/build_review_states.hpp"
#include "loupe/builds/builds_service.hpp"
#include "loupe/builds/project_tests.hpp"
#include "loupe/events/events.hpp"
#include "store/comments.hpp"
#include "store/reviews.hpp"

namespace soci {
class session;
}

namespace loupe::reviews {

class ReviewRecorder {
public:
    ReviewRecorder(builds::BuildsService& builds, builds::BuildReviewStates& states,
                   Events& events);

    /// Sets the review state of `build_id` (its row locked by the caller) from its reviews;
    /// returns the build as it now reads.
    builds::BuildSummary record_state(soci::session& session, int64_t build_id);

    void review_submitted(soci::session& session, const Review& review,
                          const builds::BuildSummary& build);

    void comment_published(soci::session& session, const Comment& comment,
                           const builds::BuildSummary& build);

    void test_comment_published(soci::session& session, const Comment& comment,
                                const builds::TestSummary& test);
    /// A comment on media `media_id` (named `media_name`) was posted.
    void media_comment_published(soci::session& session, const Comment& comment, int64_t media_id,
                                 const std::string& media_name);

    void reviewers_requested(soci::session& session, const builds::BuildSummary& build,
                             int64_t requested_by, std::vector<int64_t> reviewer_ids);

private:
    builds::BuildsService& builds_;
    builds::BuildReviewStates& states_;
    Events& events_;
};

}  // namespace loupe::reviews
