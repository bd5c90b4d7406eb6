#include "review_recorder.hpp"

#include <charconv>

#include "comments/comment_body.hpp"
#include "loupe/reviews/events.hpp"
#include "review_state.hpp"
#include "store/subscriptions.hpp"

namespace loupe::reviews {
namespace {

// When every approval that counts was carried forward from an earlier build, the build says
// which build and reviews it inherits.
Json inheritance_details(soci::session& session, builds::BuildsService& builds,
                         const std::vector<Review>& reviews) {
    Json inherited_reviews = Json::array();
    std::optional<int64_t> from_build;
    for (const auto* review : counting_reviews(reviews)) {
        if (review->state != "approved") {
            continue;
        }
        if (!review->inherited_from) {
            return nullptr;
        }
        auto source = find_review(session, *review->inherited_from);
        if (!source) {
            return nullptr;
        }
        from_build = source->build_id;
        inherited_reviews.push_back(std::to_string(source->id));
    }
    if (!from_build) {
        return nullptr;
    }
    auto build = builds.find_build_by_id(session, *from_build);
    return Json{{"automatic", true},
                {"inheritedFrom",
                 {{"buildId", std::to_string(*from_build)},
                  {"buildNumber", build ? Json(build->number) : Json()},
                  {"reviewIds", inherited_reviews}}}};
}

// A mention names the user by their personal account's id (as the API shows users); the
// users mentioned in `body` who still exist.
std::vector<int64_t> mentioned_users(soci::session& session, const Json& body) {
    std::vector<int64_t> users;
    for (const auto& id : mentioned_user_ids(body)) {
        int64_t account_id = 0;
        const auto [end, error] = std::from_chars(id.data(), id.data() + id.size(), account_id);
        if (error != std::errc{} || end != id.data() + id.size()) {
            continue;
        }
        if (auto user_id = user_of_personal_account(session, account_id)) {
            users.push_back(*user_id);
        }
    }
    return users;
}

}  // namespace

ReviewRecorder::ReviewRecorder(builds::BuildsService& builds, builds::BuildReviewStates& states,
                               Events& events)
    : builds_(builds), states_(states), events_(events) {
    events_.publishes<BuildReviewStateChanged>();
    events_.publishes<ReviewSubmitted>();
    events_.publishes<CommentCreated>();
    events_.publishes<TestCommentCreated>();
    events_.publishes<MediaCommentCreated>();
    events_.publishes<ReviewRequested>();
}

builds::BuildSummary ReviewRecorder::record_state(soci::session& session, int64_t build_id) {
    const auto reviews = build_reviews(session, build_id);
    builds::BuildReview review;
    review.state = review_state(reviews);
    if (review.state == builds::ReviewState::accepted) {
        review.details = inheritance_details(session, builds_, reviews);
    }
    auto change = states_.set(session, build_id, review);
    if (change.state_changed()) {
        events_.publish(session,
                        BuildReviewStateChanged{builds::facts_of(change.build),
                                                change.build.review_state, change.before.state});
    }
    return std::move(change.build);
}

void ReviewRecorder::review_submitted(soci::session& session, const Review& review,
                                      const builds::BuildSummary& build) {
    ReviewSubmitted event;
    event.review_id = review.id;
    event.build = builds::facts_of(build);
    event.user_id = review.user_id;
    event.decision = parse_review_decision(review.state).value_or(ReviewDecision::commented);
    event.automatic = review.inherited_from.has_value();
    event.inherited_from_review_id = review.inherited_from;
    event.build_follower_ids = build_followers(session, build.id);
    events_.publish(session, event);
}

void ReviewRecorder::comment_published(soci::session& session, const Comment& comment,
                                       const builds::BuildSummary& build) {
    CommentCreated event;
    event.comment_id = comment.id;
    event.public_id = comment.public_id;
    event.build_id = build.id;
    event.project_id = build.project_id;
    event.build_number = build.number;
    event.author_id = comment.author_id;
    event.thread_id = comment.thread_id;
    event.review_id = comment.review_id;
    event.diff_id = comment.screenshot_diff_id;
    event.body = comment.body;
    if (comment.thread_id) {
        event.thread_follower_ids = thread_followers(session, *comment.thread_id);
    }
    if (comment.screenshot_diff_id) {
        for (const auto& diff :
             builds_.find_diffs(session, build.id, {*comment.screenshot_diff_id})) {
            event.test_id = diff.test_id;
        }
    }
    event.mentioned_user_ids = mentioned_users(session, comment.body);
    events_.publish(session, event);
}

void ReviewRecorder::test_comment_published(soci::session& session, const Comment& comment,
                                            const builds::TestSummary& test) {
    TestCommentCreated event;
    event.comment_id = comment.id;
    event.public_id = comment.public_id;
    event.project_id = comment.project_id;
    event.test_id = test.id;
    event.test_public_id = test.public_id;
    event.test_name = test.name;
    event.author_id = comment.author_id;
    event.thread_id = comment.thread_id;
    event.body = comment.body;
    event.mentioned_user_ids = mentioned_users(session, comment.body);
    if (comment.thread_id) {
        event.thread_follower_ids = thread_followers(session, *comment.thread_id);
    }
    event.test_follower_ids = test_followers(session, test.id);
    events_.publish(session, event);
}

void ReviewRecorder::media_comment_published(soci::session& session, const Comment& comment,
                                             int64_t media_id, const std::string& media_name) {
    MediaCommentCreated event;
    event.comment_id = comment.id;
    event.public_id = comment.public_id;
    event.project_id = comment.project_id;
    event.media_id = media_id;
    event.media_name = media_name;
    event.author_id = comment.author_id;
    event.thread_id = comment.thread_id;
    event.body = comment.body;
    event.mentioned_user_ids = mentioned_users(session, comment.body);
    if (comment.thread_id) {
        event.thread_follower_ids = thread_followers(session, *comment.thread_id);
    }
    events_.publish(session, event);
}

void ReviewRecorder::reviewers_requested(soci::session& session, const builds::BuildSummary& build,
                                         int64_t requested_by, std::vector<int64_t> reviewer_ids) {
    if (reviewer_ids.empty()) {
        return;
    }
    events_.publish(
        session, ReviewRequested{builds::facts_of(build), requested_by, std::move(reviewer_ids)});
}

}  // namespace loupe::reviews
