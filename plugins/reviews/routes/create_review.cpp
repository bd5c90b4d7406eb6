// POST …/builds/{buildNumber}/reviews: approve, reject or comment on a build, optionally with
// per-snapshot decisions. The caller's draft review, if any, becomes the submitted one.
#include <soci/soci.h>

#include <set>

#include "build_access.hpp"
#include "comment_access.hpp"
#include "comment_body_resolver.hpp"
#include "loupe/http/json_reader.hpp"
#include "review_facts.hpp"
#include "review_recorder.hpp"
#include "routes/routes.hpp"
#include "store/comments.hpp"
#include "store/subscriptions.hpp"

namespace loupe::reviews {
namespace {

struct SnapshotInput {
    std::string id;
    std::string conclusion;  ///< approved | rejected
};

struct CreateReviewInput {
    int64_t number = 0;
    std::string state;  ///< approved | rejected | commented
    std::vector<SnapshotInput> snapshots;
    Json body;  ///< the review's comment, null when there is none
};

std::string state_of_event(const std::string& event) {
    if (event == "APPROVE") {
        return "approved";
    }
    return event == "COMMENT" ? "commented" : "rejected";  // REJECT, REQUEST_CHANGES
}

// The body's shape is checked here (mentions are resolved later, outside the transaction); a
// blank body means the review has no comment.
Json review_comment_body(const Json& comment, JsonReader& reader) {
    if (!comment.is_string() && !comment.is_object()) {
        reader.issue("body", kInvalidCommentBody);
        return nullptr;
    }
    try {
        parse_comment_body(comment, [](const std::string&) { return std::nullopt; });
    } catch (const CommentBodyError& error) {
        if (error.what() != kEmptyComment) {
            reader.issue("body", error.what());
        }
        return nullptr;
    }
    return comment;
}

void add_review_comment(soci::session& session, const Review& review, const CommentBody& body) {
    Comment comment;
    comment.public_id = new_comment_id();
    comment.build_id = review.build_id;
    comment.project_id = review.project_id;
    comment.author_id = review.user_id;
    comment.body = body.doc;
    comment.text = body.text;
    comment.review_id = review.id;
    comment.created_at = now_ms();
    insert_comment(session, comment);
    if (review.user_id) {
        subscribe_thread_by_default(session, comment.id, *review.user_id);
        subscribe_build_by_default(session, review.build_id, *review.user_id);
    }
}

CreateReviewInput parse_create_review_input(Request& request) {
    Validation validation;
    CreateReviewInput input;
    auto number = parse_build_number(request.param("buildNumber"), validation);
    const Json& body = object_body(request);
    JsonReader reader(body, validation);
    auto event = reader.one_of("event", false, {"APPROVE", "REJECT", "COMMENT"});
    auto conclusion = reader.one_of("conclusion", false, {"APPROVE", "REQUEST_CHANGES"});
    if (const Json* comment = reader.get("body"); comment && !comment->is_null()) {
        input.body = review_comment_body(*comment, reader);
    }
    if (const Json* list = reader.array("snapshots", false)) {
        for (std::size_t i = 0; i < list->size(); ++i) {
            const auto path = "snapshots." + std::to_string(i);
            if (!(*list)[i].is_object()) {
                validation.add(path, expected_message("object", &(*list)[i]));
                continue;
            }
            JsonReader item((*list)[i], validation, path);
            auto id = item.string("id", true);
            auto decision = item.one_of("conclusion", true, {"APPROVE", "REQUEST_CHANGES"});
            if (id && decision) {
                input.snapshots.push_back({*id, state_of_event(*decision)});
            }
        }
    }
    validation.throw_if_any();
    if (!event && !conclusion) {
        throw HttpError::bad_request("Either `event` or `conclusion` is required");
    }
    input.number = *number;
    input.state = state_of_event(event ? *event : *conclusion);
    return input;
}

// Snapshot ids that are not diffs of the build, in the order given, each once.
std::vector<std::string> foreign_snapshots(soci::session& session, builds::BuildsService& builds,
                                           int64_t build_id,
                                           const std::vector<SnapshotInput>& snapshots) {
    std::vector<int64_t> ids;
    for (const auto& snapshot : snapshots) {
        if (auto id = parse_id(snapshot.id)) {
            ids.push_back(*id);
        }
    }
    std::set<std::string> known;
    for (const auto& diff : builds.find_diffs(session, build_id, ids)) {
        known.insert(std::to_string(diff.id));
    }
    std::vector<std::string> foreign;
    std::set<std::string> listed;
    for (const auto& snapshot : snapshots) {
        if (!known.contains(snapshot.id) && listed.insert(snapshot.id).second) {
            foreign.push_back(snapshot.id);
        }
    }
    return foreign;
}

std::string foreign_message(int64_t number, const std::vector<std::string>& ids) {
    std::string list;
    for (std::size_t i = 0; i < ids.size() && i < 10; ++i) {
        list += (i == 0 ? "" : ", ") + ids[i];
    }
    if (ids.size() > 10) {
        list += " and " + std::to_string(ids.size() - 10) + " more";
    }
    return "Some reviewed screenshot diffs do not belong to build " + std::to_string(number) +
           ": " + list;
}

}  // namespace

void add_create_review(Host& host, builds::BuildsService& builds, ReviewRecorder& recorder) {
    host.routes().add_validated(
        Method::post, "/projects/{owner}/{project}/builds/{buildNumber}/reviews",
        AuthRequirement::personal_token,
        RouteAccess::project(ProjectPermission::review,
                             "You do not have permission to review this build"),
        parse_create_review_input,
        [&host, &builds, &recorder](Request& request, const CreateReviewInput& input) {
            auto access = open_build(host, builds, request, input.number);
            std::optional<ResolvedBody> comment;
            if (!input.body.is_null()) {
                comment = try_resolve_comment_body(host.identity(), access.project, input.body);
                if (comment->error) {
                    throw HttpError::bad_request(*comment->error);
                }
            }
            Review saved = host.db().transaction([&](soci::session& session) {
                builds.lock_build(session, access.build.id);
                if (auto foreign =
                        foreign_snapshots(session, builds, access.build.id, input.snapshots);
                    !foreign.empty()) {
                    throw HttpError::bad_request(foreign_message(input.number, foreign));
                }
                const int64_t now = now_ms();
                Review review;
                if (auto draft = pending_review(session, access.build.id, access.user_id)) {
                    review = *draft;
                    submit_review(session, review.id, input.state, now);
                    review.state = input.state;
                    review.submitted_at = now;
                } else {
                    review.build_id = access.build.id;
                    review.project_id = access.project.id;
                    review.user_id = access.user_id;
                    review.state = input.state;
                    review.created_at = now;
                    review.submitted_at = now;
                    insert_review(session, review);
                }
                std::vector<SnapshotDecision> decisions;
                for (const auto& snapshot : input.snapshots) {
                    decisions.push_back({*parse_id(snapshot.id), snapshot.conclusion});
                }
                save_snapshot_decisions(session, review.id, decisions);
                if (comment) {
                    add_review_comment(session, review, comment->value);
                }
                const auto reviewed = recorder.record_state(session, access.build.id);
                recorder.review_submitted(session, review, reviewed);
                // The review's comment, and those drafted in it, become visible now.
                for (const auto& published : review_comments(session, review.id)) {
                    recorder.comment_published(session, published, reviewed);
                }
                return review;
            });
            auto session = host.db().session();
            return Response::json(reviews_json(*session, host.identity(), {saved}).front());
        });
}

}  // namespace loupe::reviews
