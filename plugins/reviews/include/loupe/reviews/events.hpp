#pragma once
// The events the reviews plugin publishes (loupe/events/events.hpp), each in the transaction
// that made the change.
//
//   build.review_state_changed  a build's review state (accepted | rejected | none) changed: a
//                               review submitted or dismissed, a draft started, or approvals
//                               carried forward from an earlier build of the branch; `build`
//                               reads as it does with the new state (its status accepted,
//                               rejected or changes-detected)
//   review.submitted            a user's review of a build was submitted (approved, rejected or
//                               commented; Argos's `build.reviewed` is this event with approved
//                               or rejected), or an approval was carried forward (automatic);
//                               says who follows the build
//   review.requested            users were asked to review a build (each only the first time
//                               they are asked), by whom
//   comment.created             a comment became visible: posted on its own, or published with
//                               the review it was drafted in; says its thread (a reply), the
//                               diff and test it is pinned to, the users it mentions, its
//                               rich-text document (hostile content: escape it wherever shown)
//                               and, for a reply, the users who follow its thread
//   test_comment.created        a comment on a test (not on one build) was posted
//   media_comment.created       a comment on a media (the media plugin's) was posted: its
//                               thread, the users it mentions, who follows the thread

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "loupe/builds/build_states.hpp"
#include "loupe/builds/events.hpp"
#include "loupe/events/events.hpp"
#include "loupe/json.hpp"

namespace loupe::reviews {

struct BuildReviewStateChanged {
    static constexpr const char* event_type = "build.review_state_changed";
    static constexpr int event_version = 1;
    builds::BuildFacts build;
    std::optional<builds::ReviewState> state;
    std::optional<builds::ReviewState> previous_state;
};

/// What a submitted review decided: approved | rejected | commented.
enum class ReviewDecision { approved, rejected, commented };

struct ReviewSubmitted {
    static constexpr const char* event_type = "review.submitted";
    static constexpr int event_version = 1;
    int64_t review_id = 0;
    builds::BuildFacts build;
    std::optional<int64_t> user_id;  ///< the reviewer (none once the user was deleted)
    ReviewDecision decision = ReviewDecision::commented;
    bool automatic = false;  ///< an approval carried forward from an earlier build
    std::optional<int64_t> inherited_from_review_id;
    std::vector<int64_t> build_follower_ids;  ///< who follows the build (the reviewer included)
};

struct ReviewRequested {
    static constexpr const char* event_type = "review.requested";
    static constexpr int event_version = 1;
    builds::BuildFacts build;
    std::optional<int64_t> requested_by;  ///< the user who asked
    std::vector<int64_t> reviewer_ids;    ///< the users newly asked
};

struct CommentCreated {
    static constexpr const char* event_type = "comment.created";
    static constexpr int event_version = 1;
    int64_t comment_id = 0;
    std::string public_id;  ///< "comment-…", as the API shows it
    int64_t build_id = 0;
    int64_t project_id = 0;
    int64_t build_number = 0;
    std::optional<int64_t> author_id;
    std::optional<int64_t> thread_id;  ///< the thread's first comment, for a reply
    std::optional<int64_t> review_id;  ///< the review it was written in
    std::optional<int64_t> diff_id;    ///< the screenshot diff it is pinned to
    std::optional<int64_t> test_id;    ///< that diff's test
    std::vector<int64_t> mentioned_user_ids;
    Json body;  ///< the rich-text document {"type": "doc", ...}, as stored
    std::vector<int64_t> thread_follower_ids;  ///< for a reply: who follows the thread
};

/// A comment on a test (not on one build) was posted: its thread (a reply), the users it
/// mentions, who follows the thread and who follows the test.
struct TestCommentCreated {
    static constexpr const char* event_type = "test_comment.created";
    static constexpr int event_version = 1;
    int64_t comment_id = 0;
    std::string public_id;  ///< "comment-…", as the API shows it
    int64_t project_id = 0;
    int64_t test_id = 0;
    std::string test_public_id;  ///< the test's id in the API ("<PROJECT>-<sqid>")
    std::string test_name;       ///< the screenshot's name
    std::optional<int64_t> author_id;
    std::optional<int64_t> thread_id;  ///< the thread's first comment, for a reply
    std::vector<int64_t> mentioned_user_ids;
    Json body;  ///< the rich-text document {"type": "doc", ...}, as stored
    std::vector<int64_t> thread_follower_ids;  ///< for a reply: who follows the thread
    std::vector<int64_t> test_follower_ids;    ///< who follows the test
};

/// A comment on a media was posted: its thread (a reply), the users it mentions and who follows
/// the thread.
struct MediaCommentCreated {
    static constexpr const char* event_type = "media_comment.created";
    static constexpr int event_version = 1;
    int64_t comment_id = 0;
    std::string public_id;  ///< "comment-…", as the API shows it
    int64_t project_id = 0;
    int64_t media_id = 0;
    std::string media_name;  ///< the media's name, as uploaded
    std::optional<int64_t> author_id;
    std::optional<int64_t> thread_id;  ///< the thread's first comment, for a reply
    std::vector<int64_t> mentioned_user_ids;
    Json body;  ///< the rich-text document {"type": "doc", ...}, as stored
    std::vector<int64_t> thread_follower_ids;  ///< for a reply: who follows the thread
};

inline std::string_view to_text(ReviewDecision decision) {
    switch (decision) {
        case ReviewDecision::approved:
            return "approved";
        case ReviewDecision::rejected:
            return "rejected";
        case ReviewDecision::commented:
            return "commented";
    }
    return "";
}

inline std::optional<ReviewDecision> parse_review_decision(std::string_view text) {
    for (auto decision :
         {ReviewDecision::approved, ReviewDecision::rejected, ReviewDecision::commented}) {
        if (to_text(decision) == text) {
            return decision;
        }
    }
    return std::nullopt;
}

inline void to_json(Json& json, const BuildReviewStateChanged& event) {
    json = Json{{"build", event.build},
                {"state", optional_json(event.state)},
                {"previousState", optional_json(event.previous_state)}};
}
inline void from_json(const Json& json, BuildReviewStateChanged& event) {
    event.build = json.at("build").get<builds::BuildFacts>();
    event.state = optional_field<builds::ReviewState>(json, "state");
    event.previous_state = optional_field<builds::ReviewState>(json, "previousState");
}

inline void to_json(Json& json, const ReviewSubmitted& event) {
    json = Json{{"reviewId", event.review_id},
                {"build", event.build},
                {"userId", optional_json(event.user_id)},
                {"decision", std::string(to_text(event.decision))},
                {"automatic", event.automatic},
                {"inheritedFromReviewId", optional_json(event.inherited_from_review_id)},
                {"buildFollowerIds", event.build_follower_ids}};
}
inline void from_json(const Json& json, ReviewSubmitted& event) {
    event.review_id = json.at("reviewId").get<int64_t>();
    event.build = json.at("build").get<builds::BuildFacts>();
    event.user_id = optional_field<int64_t>(json, "userId");
    const auto decision = parse_review_decision(json.at("decision").get<std::string>());
    if (!decision) {
        throw std::invalid_argument("unknown review decision " + json.at("decision").dump());
    }
    event.decision = *decision;
    event.automatic = field_or(json, "automatic", false);
    event.inherited_from_review_id = optional_field<int64_t>(json, "inheritedFromReviewId");
    event.build_follower_ids = field_or(json, "buildFollowerIds", std::vector<int64_t>{});
}

inline void to_json(Json& json, const ReviewRequested& event) {
    json = Json{{"build", event.build},
                {"requestedBy", optional_json(event.requested_by)},
                {"reviewerIds", event.reviewer_ids}};
}
inline void from_json(const Json& json, ReviewRequested& event) {
    event.build = json.at("build").get<builds::BuildFacts>();
    event.requested_by = optional_field<int64_t>(json, "requestedBy");
    event.reviewer_ids = field_or(json, "reviewerIds", std::vector<int64_t>{});
}

inline void to_json(Json& json, const CommentCreated& event) {
    json = Json{{"commentId", event.comment_id},
                {"publicId", event.public_id},
                {"buildId", event.build_id},
                {"projectId", event.project_id},
                {"buildNumber", event.build_number},
                {"authorId", optional_json(event.author_id)},
                {"threadId", optional_json(event.thread_id)},
                {"reviewId", optional_json(event.review_id)},
                {"diffId", optional_json(event.diff_id)},
                {"testId", optional_json(event.test_id)},
                {"mentionedUserIds", event.mentioned_user_ids},
                {"body", event.body},
                {"threadFollowerIds", event.thread_follower_ids}};
}
inline void from_json(const Json& json, CommentCreated& event) {
    event.comment_id = json.at("commentId").get<int64_t>();
    event.public_id = field_or<std::string>(json, "publicId", "");
    event.build_id = json.at("buildId").get<int64_t>();
    event.project_id = json.at("projectId").get<int64_t>();
    event.build_number = field_or<int64_t>(json, "buildNumber", 0);
    event.author_id = optional_field<int64_t>(json, "authorId");
    event.thread_id = optional_field<int64_t>(json, "threadId");
    event.review_id = optional_field<int64_t>(json, "reviewId");
    event.diff_id = optional_field<int64_t>(json, "diffId");
    event.test_id = optional_field<int64_t>(json, "testId");
    event.mentioned_user_ids = field_or(json, "mentionedUserIds", std::vector<int64_t>{});
    event.body = json.value("body", Json());
    event.thread_follower_ids = field_or(json, "threadFollowerIds", std::vector<int64_t>{});
}

inline void to_json(Json& json, const TestCommentCreated& event) {
    json = Json{{"commentId", event.comment_id},
                {"publicId", event.public_id},
                {"projectId", event.project_id},
                {"testId", event.test_id},
                {"testPublicId", event.test_public_id},
                {"testName", event.test_name},
                {"authorId", optional_json(event.author_id)},
                {"threadId", optional_json(event.thread_id)},
                {"mentionedUserIds", event.mentioned_user_ids},
                {"body", event.body},
                {"threadFollowerIds", event.thread_follower_ids},
                {"testFollowerIds", event.test_follower_ids}};
}
inline void from_json(const Json& json, TestCommentCreated& event) {
    event.comment_id = json.at("commentId").get<int64_t>();
    event.public_id = field_or<std::string>(json, "publicId", "");
    event.project_id = json.at("projectId").get<int64_t>();
    event.test_id = json.at("testId").get<int64_t>();
    event.test_public_id = field_or<std::string>(json, "testPublicId", "");
    event.test_name = field_or<std::string>(json, "testName", "");
    event.author_id = optional_field<int64_t>(json, "authorId");
    event.thread_id = optional_field<int64_t>(json, "threadId");
    event.mentioned_user_ids = field_or(json, "mentionedUserIds", std::vector<int64_t>{});
    event.body = json.value("body", Json());
    event.thread_follower_ids = field_or(json, "threadFollowerIds", std::vector<int64_t>{});
    event.test_follower_ids = field_or(json, "testFollowerIds", std::vector<int64_t>{});
}

inline void to_json(Json& json, const MediaCommentCreated& event) {
    json = Json{{"commentId", event.comment_id},
                {"publicId", event.public_id},
                {"projectId", event.project_id},
                {"mediaId", event.media_id},
                {"mediaName", event.media_name},
                {"authorId", optional_json(event.author_id)},
                {"threadId", optional_json(event.thread_id)},
                {"mentionedUserIds", event.mentioned_user_ids},
                {"body", event.body},
                {"threadFollowerIds", event.thread_follower_ids}};
}
inline void from_json(const Json& json, MediaCommentCreated& event) {
    event.comment_id = json.at("commentId").get<int64_t>();
    event.public_id = field_or<std::string>(json, "publicId", "");
    event.project_id = json.at("projectId").get<int64_t>();
    event.media_id = json.at("mediaId").get<int64_t>();
    event.media_name = field_or<std::string>(json, "mediaName", "");
    event.author_id = optional_field<int64_t>(json, "authorId");
    event.thread_id = optional_field<int64_t>(json, "threadId");
    event.mentioned_user_ids = field_or(json, "mentionedUserIds", std::vector<int64_t>{});
    event.body = json.value("body", Json());
    event.thread_follower_ids = field_or(json, "threadFollowerIds", std::vector<int64_t>{});
}

}  // namespace loupe::reviews
