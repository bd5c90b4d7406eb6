// PATCH …/comments/{commentId} (a new body; author only; sets editedAt) and DELETE (author only;
// the comment leaves the list, a deleted root closes its thread to replies).
#include <soci/soci.h>

#include "comment_access.hpp"
#include "comment_body_resolver.hpp"
#include "comment_facts.hpp"
#include "loupe/http/json_reader.hpp"
#include "routes/routes.hpp"

namespace loupe::reviews {
namespace {

struct EditInput {
    int64_t number = 0;
    Json body;
};

EditInput parse_edit_comment_input(Request& request) {
    Validation validation;
    EditInput input;
    auto number = parse_build_number(request.param("buildNumber"), validation);
    const Json& body = object_body(request);
    JsonReader reader(body, validation);
    input.body = read_comment_body_field(reader);
    validation.throw_if_any();
    input.number = *number;
    return input;
}

// Whoever may see the build may try; only the comment's author succeeds (checked with the row).
RouteAccess author_access() {
    return RouteAccess::project(ProjectPermission::view,
                                "You do not have permission to view this build");
}

}  // namespace

void add_edit_comment(Host& host, builds::BuildsService& builds) {
    const std::string path =
        "/projects/{owner}/{project}/builds/{buildNumber}/comments/{commentId}";
    host.routes().add_validated(
        Method::patch, path, AuthRequirement::personal_token, author_access(),
        parse_edit_comment_input, [&host, &builds](Request& request, const EditInput& input) {
            auto access = open_build(host, builds, request, input.number);
            auto body = try_resolve_comment_body(host.identity(), access.project, input.body);
            Comment saved = host.db().transaction([&](soci::session& session) {
                auto comment =
                    require_comment(session, access.build.id, request.param("commentId"));
                if (comment.author_id != access.user_id) {
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
            return Response::json(comment_json(*session, host.identity(), saved));
        });
    host.routes().add_validated(
        Method::del, path, AuthRequirement::personal_token, author_access(),
        parse_build_number_param, [&host, &builds](Request& request, int64_t number) {
            auto access = open_build(host, builds, request, number);
            Comment saved = host.db().transaction([&](soci::session& session) {
                auto comment =
                    require_comment(session, access.build.id, request.param("commentId"));
                if (comment.author_id != access.user_id) {
                    throw HttpError::forbidden("You do not have permission to delete this comment");
                }
                if (!comment.deleted_at) {
                    comment.deleted_at = now_ms();
                    mark_deleted(session, comment.id, *comment.deleted_at);
                }
                return comment;
            });
            auto session = host.db().session();
            return Response::json(comment_json(*session, host.identity(), saved));
        });
}

}  // namespace loupe::reviews
