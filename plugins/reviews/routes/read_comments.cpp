// GET …/builds/{buildNumber}/comments (the comments the caller may see, oldest first, as a bare
// array) and GET …/comments/{commentId}.
#include <soci/soci.h>

#include "comment_access.hpp"
#include "comment_facts.hpp"
#include "routes/routes.hpp"

namespace loupe::reviews {

void add_read_comments(Host& host, builds::BuildsService& builds) {
    const std::string refusal = "You do not have permission to view this build";
    host.routes().add_validated(
        Method::get, "/projects/{owner}/{project}/builds/{buildNumber}/comments",
        AuthRequirement::personal_token, RouteAccess::project(ProjectPermission::view, refusal),
        parse_build_number_param, [&host, &builds](Request& request, int64_t number) {
            auto access = open_build(host, builds, request, number);
            auto session = host.db().session();
            return Response::json(
                comments_json(*session, host.identity(),
                              visible_comments(*session, access.build.id, access.user_id)));
        });
    host.routes().add_validated(
        Method::get, "/projects/{owner}/{project}/builds/{buildNumber}/comments/{commentId}",
        AuthRequirement::personal_token, RouteAccess::project(ProjectPermission::view, refusal),
        parse_build_number_param, [&host, &builds](Request& request, int64_t number) {
            auto access = open_build(host, builds, request, number);
            auto session = host.db().session();
            auto comment = require_visible_comment(*session, access.build.id,
                                                   request.param("commentId"), access.user_id);
            return Response::json(comment_json(*session, host.identity(), comment));
        });
}

}  // namespace loupe::reviews
