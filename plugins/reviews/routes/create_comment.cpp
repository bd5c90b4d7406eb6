// POST …/builds/{buildNumber}/comments and …/tests/{testId}/comments: a comment, or a reply
// (threadId: any comment of the thread; the reply stores the root). On a build, optionally
// anchored to a diff of the build, optionally added to the caller's draft review; a test's
// comments are about the test itself (no diff, no review).
#include <soci/soci.h>

#include "build_access.hpp"
#include "comment_access.hpp"
#include "comment_body_resolver.hpp"
#include "loupe/http/json_reader.hpp"
#include "review_recorder.hpp"
#include "routes/routes.hpp"
#include "store/reviews.hpp"
#include "store/subscriptions.hpp"

namespace loupe::reviews {
namespace {

/// The latest moment a pin on a video may name, in seconds (a bound, not a real video length).
constexpr double max_video_seconds = 1e7;

struct CreateCommentInput {
    Json body;
    std::optional<std::string> thread_id;
    std::optional<std::string> diff_id;
    Json anchor;
    bool add_to_review = false;
};

// {type: "point", x, y[, time]} with numbers, or {type: "lines", from, to} with integers; the
// bounds are business rules checked later. `time` (seconds, >= 0) is the moment of a video a pin
// on a media was placed at.
Json read_anchor(JsonReader& reader) {
    const Json* anchor = reader.object("anchor", false);
    if (anchor == nullptr) {
        return nullptr;
    }
    JsonReader fields(*anchor, reader.validation(), reader.path_of("anchor"));
    auto type = fields.one_of("type", true, {"point", "lines"});
    if (type == "point") {
        auto x = fields.number("x", true, -1e308, 1e308);
        auto y = fields.number("y", true, -1e308, 1e308);
        auto time = fields.number("time", false, 0, max_video_seconds);
        if (x && y) {
            Json point{{"type", "point"}, {"x", *x}, {"y", *y}};
            if (time) {
                point["time"] = *time;
            }
            return point;
        }
    } else if (type == "lines") {
        auto from = fields.integer("from", true, INT64_MIN);
        auto to = fields.integer("to", true, INT64_MIN);
        if (from && to) {
            return Json{{"type", "lines"}, {"from", *from}, {"to", *to}};
        }
    }
    return nullptr;
}

CreateCommentInput parse_create_comment_input(
    Request& request, const std::function<void(Request&, Validation&)>& check) {
    Validation validation;
    CreateCommentInput input;
    check(request, validation);
    const Json& body = object_body(request);
    JsonReader reader(body, validation);
    input.body = read_comment_body_field(reader);
    input.thread_id = reader.string("threadId", false);
    input.diff_id = reader.string("screenshotDiffId", false);
    input.anchor = read_anchor(reader);
    input.add_to_review = reader.boolean("addToReview").value_or(false);
    validation.throw_if_any();
    return input;
}

void check_anchor_bounds(const Json& anchor) {
    if (anchor["type"] == "point") {
        for (const char* axis : {"x", "y"}) {
            const double value = anchor[axis].get<double>();
            if (value < 0 || value > 1) {
                throw HttpError::bad_request("Comment anchor coordinates must be between 0 and 1");
            }
        }
        return;
    }
    const auto from = anchor["from"].get<int64_t>(), to = anchor["to"].get<int64_t>();
    if (from < 1 || to < 1) {
        throw HttpError::bad_request("Comment anchor lines must be positive integers");
    }
    if (to < from) {
        throw HttpError::bad_request("Comment anchor line range is inverted");
    }
}

bool accepts_review_drafts(builds::BuildStatus status) {
    return status == builds::BuildStatus::accepted || status == builds::BuildStatus::rejected ||
           status == builds::BuildStatus::changes_detected;
}

/// The build's part of a new comment: its diff anchor and its draft review. Runs in the
/// comment's transaction; answers whether it opened a new draft review.
bool attach_to_build(soci::session& session, builds::BuildsService& builds,
                     const CommentPlace& place, const CreateCommentInput& input, bool reply,
                     Comment& comment) {
    const builds::BuildSummary& build = *place.build;
    if (!input.anchor.is_null() && !input.diff_id) {
        throw HttpError::bad_request("A screenshot diff is required to anchor a comment");
    }
    if (input.diff_id) {
        const auto diff_id = parse_id(*input.diff_id);
        if (!diff_id || builds.find_diffs(session, build.id, {*diff_id}).empty()) {
            throw HttpError::not_found("Screenshot diff not found");
        }
        comment.screenshot_diff_id = diff_id;
    }
    if (!input.anchor.is_null()) {
        check_anchor_bounds(input.anchor);
        comment.anchor = input.anchor;
    }
    if (reply || !input.add_to_review || !accepts_review_drafts(build.status)) {
        return false;
    }
    builds.lock_build(session, build.id);
    if (auto draft = pending_review(session, build.id, place.user_id)) {
        comment.review_id = draft->id;
        return false;
    }
    Review review;
    review.build_id = build.id;
    review.project_id = place.project.id;
    review.user_id = place.user_id;
    review.state = "pending";
    review.created_at = comment.created_at;
    insert_review(session, review);
    comment.review_id = review.id;
    return true;
}

void add_create_route(Host& host, builds::BuildsService& builds, ReviewRecorder& recorder,
                      const CommentPlaceKind& kind) {
    host.routes().add_validated(
        Method::post, kind.prefix + "/comments", AuthRequirement::personal_token,
        kind.access(ProjectPermission::review,
                    "You do not have permission to comment on this " + kind.noun),
        [check = kind.check_path](Request& request) {
            return parse_create_comment_input(request, check);
        },
        [&host, &builds, &recorder, open = kind.open](Request& request,
                                                      const CreateCommentInput& input) {
            const CommentPlace place = open(request);
            // Resolved before the transaction (mentions read identity); refused in check order.
            auto body = try_resolve_comment_body(host.identity(), place.project, input.body);
            Comment saved = host.db().transaction([&](soci::session& session) {
                std::optional<Comment> root;
                if (input.thread_id) {
                    root = require_thread_root(session, place.subject, *input.thread_id);
                    if (input.diff_id || !input.anchor.is_null()) {
                        throw HttpError::bad_request(
                            "A reply cannot be anchored to a screenshot diff");
                    }
                }
                const bool on_media = place.subject.kind == CommentSubject::Kind::media;
                if (on_media) {
                    // A pin on a media is a point of its picture, in fractions of its size.
                    if (input.diff_id ||
                        (!input.anchor.is_null() && input.anchor["type"] != "point")) {
                        throw HttpError::bad_request(
                            "A media comment can only be anchored to a point");
                    }
                } else if (!place.build && (input.diff_id || !input.anchor.is_null())) {
                    throw HttpError::bad_request(
                        "A comment on a test cannot be anchored to a screenshot diff");
                } else if (input.anchor.contains("time")) {
                    throw HttpError::bad_request(
                        "Only a pin on a media (a moment of its video) has a time");
                }
                Comment comment;
                comment.public_id = new_comment_id();
                comment.set_subject(place.subject);
                comment.project_id = place.project.id;
                comment.author_id = place.user_id;
                comment.created_at = now_ms();
                if (on_media) {
                    comment.media_version_id = place.media_version_id;
                    if (!input.anchor.is_null()) {
                        check_anchor_bounds(input.anchor);
                        comment.anchor = input.anchor;
                    }
                }
                const bool new_draft = place.build && attach_to_build(session, builds, place, input,
                                                                      root.has_value(), comment);
                if (body.error) {
                    throw HttpError::bad_request(*body.error);
                }
                comment.body = body.value.doc;
                comment.text = body.value.text;
                if (root) {
                    comment.thread_id = root->id;
                    comment.review_id = root->review_id;  // a reply to a draft is a draft
                }
                insert_comment(session, comment);
                if (comment.review_id) {
                    auto review = find_review(session, *comment.review_id);
                    comment.pending = review && review->state == "pending";
                }
                subscribe_thread_by_default(session, root ? root->id : comment.id, place.user_id);
                if (on_media) {
                    recorder.media_comment_published(session, comment, place.subject.id,
                                                     place.media_name);
                    return comment;
                }
                if (!place.build) {
                    // Commenting on a test follows it, unless its follower chose otherwise.
                    subscribe_test_by_default(session, place.subject.id, place.user_id);
                    recorder.test_comment_published(session, comment, *place.test);
                    return comment;
                }
                if (!root) {
                    subscribe_build_by_default(session, place.build->id, place.user_id);
                }
                if (new_draft) {
                    recorder.record_state(session, place.build->id);
                }
                if (!comment.pending) {
                    recorder.comment_published(session, comment, *place.build);
                }
                return comment;
            });
            auto session = host.db().session();
            return Response::json(place_comment_json(host, *session, place, saved), 201);
        });
}

}  // namespace

void add_create_comment(Host& host, builds::BuildsService& builds, ReviewRecorder& recorder,
                        const std::vector<CommentPlaceKind>& kinds) {
    for (const auto& kind : kinds) {
        add_create_route(host, builds, recorder, kind);
    }
}

}  // namespace loupe::reviews
