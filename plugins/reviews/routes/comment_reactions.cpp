// POST …/comments/{commentId}/reactions {emoji} and DELETE …/reactions?emoji=: the caller's
// reaction, exactly one emoji; adding twice or removing a missing one changes nothing.
#include <soci/soci.h>

#include "comment_access.hpp"
#include "comment_facts.hpp"
#include "comments/comment_body.hpp"
#include "loupe/http/json_reader.hpp"
#include "routes/routes.hpp"
#include "store/reactions.hpp"

namespace loupe::reviews {
namespace {

struct ReactionInput {
    int64_t number = 0;
    std::string emoji;
};

ReactionInput parse_body(Request& request) {
    Validation validation;
    ReactionInput input;
    auto number = parse_build_number(request.param("buildNumber"), validation);
    JsonReader reader(object_body(request), validation);
    input.emoji = reader.string("emoji", true).value_or("");
    validation.throw_if_any();
    input.number = *number;
    return input;
}

ReactionInput parse_query(Request& request) {
    Validation validation;
    ReactionInput input;
    auto number = parse_build_number(request.param("buildNumber"), validation);
    auto emoji = request.query("emoji");
    if (!emoji) {
        validation.add("emoji", "Invalid input: expected string, received undefined");
    } else if (request.query_count("emoji") > 1) {
        validation.add("emoji", "Invalid input: expected string, received array");
    }
    validation.throw_if_any();
    input.number = *number;
    input.emoji = *emoji;
    return input;
}

void add_route(Host& host, builds::BuildsService& builds, Method method, bool add) {
    auto handle = [&host, &builds, add](Request& request, const ReactionInput& input) {
        auto access = open_build(host, builds, request, input.number);
        Comment saved = host.db().transaction([&](soci::session& session) {
            // Deleted comments and other people's drafts are not there to react to: the answer
            // would show their body.
            auto comment = require_visible_comment(session, access.build.id,
                                                   request.param("commentId"), access.user_id);
            if (!is_single_emoji(input.emoji)) {
                throw HttpError::bad_request("Invalid emoji");
            }
            if (add) {
                add_reaction(session, comment.id, access.user_id, input.emoji);
            } else {
                remove_reaction(session, comment.id, access.user_id, input.emoji);
            }
            return comment;
        });
        auto session = host.db().session();
        return Response::json(comment_json(*session, host.identity(), saved));
    };
    const std::string path =
        "/projects/{owner}/{project}/builds/{buildNumber}/comments/{commentId}/reactions";
    const auto access = RouteAccess::project(ProjectPermission::review,
                                             "You do not have permission to react to this comment");
    if (add) {
        host.routes().add_validated(method, path, AuthRequirement::personal_token, access,
                                    parse_body, handle);
    } else {
        host.routes().add_validated(method, path, AuthRequirement::personal_token, access,
                                    parse_query, handle);
    }
}

}  // namespace

void add_comment_reactions(Host& host, builds::BuildsService& builds) {
    add_route(host, builds, Method::post, true);
    add_route(host, builds, Method::del, false);
}

}  // namespace loupe::reviews
