// POST …/builds/{buildNumber}/comments: a comment, a reply (threadId: any comment of the
// thread; the reply stores the root), optionally anchored to a diff of the build, optionally
// added to the caller's draft review.
#include <soci/soci.h>

#include "comment_access.hpp"
#include "comment_body_resolver.hpp"
#include "comment_facts.hpp"
#include "loupe/http/json_reader.hpp"
#include "review_recorder.hpp"
#include "routes/routes.hpp"
#include "store/reviews.hpp"
#include "store/subscriptions.hpp"

namespace loupe::reviews {
namespace {

struct CreateCommentInput {
    int64_t number = 0;
    Json body;
    std::optional<std::string> thread_id;
    std::optional<std::string> diff_id;
    Json anchor;
    bool add_to_review = false;
};

// {type: "point", x, y} with numbers, or {type: "lines", from, to} with integers; the bounds
// are business rules checked later.
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
        if (x && y) {
            return Json{{"type", "point"}, {"x", *x}, {"y", *y}};
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

CreateCommentInput parse_create_comment_input(Request& request) {
    Validation validation;
    CreateCommentInput input;
    auto number = parse_build_number(request.param("buildNumber"), validation);
    const Json& body = object_body(request);
    JsonReader reader(body, validation);
    input.body = read_comment_body_field(reader);
    input.thread_id = reader.string("threadId", false);
    input.diff_id = reader.string("screenshotDiffId", false);
    input.anchor = read_anchor(reader);
    input.add_to_review = reader.boolean("addToReview").value_or(false);
    validation.throw_if_any();
    input.number = *number;
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

}  // namespace

void add_create_comment(Host& host, builds::BuildsService& builds, ReviewRecorder& recorder) {
    host.routes().add_validated(
        Method::post, "/projects/{owner}/{project}/builds/{buildNumber}/comments",
        AuthRequirement::personal_token,
        RouteAccess::project(ProjectPermission::review,
                             "You do not have permission to comment on this build"),
        parse_create_comment_input,
        [&host, &builds, &recorder](Request& request, const CreateCommentInput& input) {
            auto access = open_build(host, builds, request, input.number);
            // Resolved before the transaction (mentions read identity); refused in check order.
            auto body = try_resolve_comment_body(host.identity(), access.project, input.body);
            Comment saved = host.db().transaction([&](soci::session& session) {
                std::optional<Comment> root;
                if (input.thread_id) {
                    root = require_thread_root(session, access.build.id, *input.thread_id);
                    if (input.diff_id || !input.anchor.is_null()) {
                        throw HttpError::bad_request(
                            "A reply cannot be anchored to a screenshot diff");
                    }
                }
                if (!input.anchor.is_null() && !input.diff_id) {
                    throw HttpError::bad_request(
                        "A screenshot diff is required to anchor a comment");
                }
                std::optional<int64_t> diff_id;
                if (input.diff_id) {
                    diff_id = parse_id(*input.diff_id);
                    if (!diff_id ||
                        builds.find_diffs(session, access.build.id, {*diff_id}).empty()) {
                        throw HttpError::not_found("Screenshot diff not found");
                    }
                }
                if (!input.anchor.is_null()) {
                    check_anchor_bounds(input.anchor);
                }
                if (body.error) {
                    throw HttpError::bad_request(*body.error);
                }

                Comment comment;
                comment.public_id = new_comment_id();
                comment.build_id = access.build.id;
                comment.project_id = access.project.id;
                comment.author_id = access.user_id;
                comment.body = body.value.doc;
                comment.text = body.value.text;
                comment.screenshot_diff_id = diff_id;
                comment.anchor = input.anchor;
                comment.created_at = now_ms();
                bool new_draft = false;
                if (root) {
                    comment.thread_id = root->id;
                    comment.review_id = root->review_id;  // a reply to a draft is a draft
                } else if (input.add_to_review && accepts_review_drafts(access.build.status)) {
                    builds.lock_build(session, access.build.id);
                    auto draft = pending_review(session, access.build.id, access.user_id);
                    if (!draft) {
                        Review review;
                        review.build_id = access.build.id;
                        review.project_id = access.project.id;
                        review.user_id = access.user_id;
                        review.state = "pending";
                        review.created_at = comment.created_at;
                        insert_review(session, review);
                        draft = review;
                        new_draft = true;
                    }
                    comment.review_id = draft->id;
                }
                insert_comment(session, comment);
                if (comment.review_id) {
                    auto review = find_review(session, *comment.review_id);
                    comment.pending = review && review->state == "pending";
                }
                subscribe_thread_by_default(session, root ? root->id : comment.id, access.user_id);
                if (!root) {
                    subscribe_build_by_default(session, access.build.id, access.user_id);
                }
                if (new_draft) {
                    recorder.record_state(session, access.build.id);
                }
                if (!comment.pending) {
                    recorder.comment_published(session, comment, access.build);
                }
                return comment;
            });
            auto session = host.db().session();
            return Response::json(comment_json(*session, host.identity(), saved), 201);
        });
}

}  // namespace loupe::reviews
