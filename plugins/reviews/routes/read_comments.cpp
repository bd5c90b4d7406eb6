// GET …/comments (the comments the caller may see, oldest first, as a bare array) and
// GET …/comments/{commentId}, on a build or a test.
#include <soci/soci.h>

#include "comment_access.hpp"
#include "routes/routes.hpp"

namespace loupe::reviews {

void add_read_comments(Host& host, const std::vector<CommentPlaceKind>& kinds) {
    for (const auto& kind : kinds) {
        const std::string refusal = "You do not have permission to view this " + kind.noun;
        host.routes().add_validated(
            Method::get, kind.prefix + "/comments", AuthRequirement::personal_token,
            kind.access(ProjectPermission::view, refusal), kind.path_only(),
            [&host, open = kind.open](Request& request, bool) {
                const CommentPlace place = open(request);
                auto session = host.db().session();
                return Response::json(
                    place_comments_json(host, *session, place,
                                        visible_comments(*session, place.subject, place.user_id)));
            });
        host.routes().add_validated(
            Method::get, kind.prefix + "/comments/{commentId}", AuthRequirement::personal_token,
            kind.access(ProjectPermission::view, refusal), kind.path_only(),
            [&host, open = kind.open](Request& request, bool) {
                const CommentPlace place = open(request);
                auto session = host.db().session();
                auto comment = require_visible_comment(*session, place.subject,
                                                       request.param("commentId"), place.user_id);
                return Response::json(place_comment_json(host, *session, place, comment));
            });
    }
}

}  // namespace loupe::reviews
