// PATCH …/comments/{commentId} (a new body; author only; sets editedAt) and DELETE (author only;
// the comment leaves the list, a deleted root closes its thread to replies), on a build or a
// test.
#include <soci/soci.h>

#include "comment_access.hpp"
#include "comment_body_resolver.hpp"
#include "loupe/http/json_reader.hpp"
#include "routes/routes.hpp"

namespace loupe::reviews {
namespace {

// Whoever may see the build or test may try; only the comment's author succeeds (checked with
// the row).
RouteAccess author_access(const CommentPlaceKind& kind) {
    return kind.access(ProjectPermission::view,
                       "You do not have permission to view this " + kind.noun);
}

void add_edit(Host& host, const CommentPlaceKind& kind) {
    auto parse = [check = kind.check_path](Request& request) {
        Validation validation;
        check(request, validation);
        JsonReader reader(object_body(request), validation);
        Json body = read_comment_body_field(reader);
        validation.throw_if_any();
        return body;
    };
    host.routes().add_validated(
        Method::patch, kind.prefix + "/comments/{commentId}", AuthRequirement::personal_token,
        author_access(kind), parse, [&host, open = kind.open](Request& request, const Json& input) {
            const CommentPlace place = open(request);
            auto body = try_resolve_comment_body(host.identity(), place.project, input);
            Comment saved = host.db().transaction([&](soci::session& session) {
                auto comment = require_comment(session, place.subject, request.param("commentId"));
                if (comment.author_id != place.user_id) {
                    throw HttpError::forbidden("You do not have permission to edit this comment");
                }
                if (body.error) {
                    throw HttpError::bad_request(*body.error);
                }
                comment.edited_at = now_ms();
                update_comment_body(session, comment.id, body.value.doc, body.value.text,
                                    *comment.edited_at);
                comment.body = body.value.doc;
                comment.text = body.value.text;
                return comment;
            });
            auto session = host.db().session();
            return Response::json(place_comment_json(host, *session, place, saved));
        });
}

void add_delete(Host& host, const CommentPlaceKind& kind) {
    host.routes().add_validated(
        Method::del, kind.prefix + "/comments/{commentId}", AuthRequirement::personal_token,
        author_access(kind), kind.path_only(), [&host, open = kind.open](Request& request, bool) {
            const CommentPlace place = open(request);
            Comment saved = host.db().transaction([&](soci::session& session) {
                auto comment = require_comment(session, place.subject, request.param("commentId"));
                if (comment.author_id != place.user_id) {
                    throw HttpError::forbidden("You do not have permission to delete this comment");
                }
                if (!comment.deleted_at) {
                    comment.deleted_at = now_ms();
                    mark_deleted(session, comment.id, *comment.deleted_at);
                }
                return comment;
            });
            auto session = host.db().session();
            return Response::json(place_comment_json(host, *session, place, saved));
        });
}

}  // namespace

void add_edit_comment(Host& host, const std::vector<CommentPlaceKind>& kinds) {
    for (const auto& kind : kinds) {
        add_edit(host, kind);
        add_delete(host, kind);
    }
}

}  // namespace loupe::reviews
