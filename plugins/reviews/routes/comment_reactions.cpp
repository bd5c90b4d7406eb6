// POST …/comments/{commentId}/reactions {emoji} and DELETE …/reactions?emoji=: the caller's
// reaction, exactly one emoji, on a comment of a build or a test; adding twice or removing a
// missing one changes nothing.
#include <soci/soci.h>

#include "comment_access.hpp"
#include "comments/comment_body.hpp"
#include "loupe/http/json_reader.hpp"
#include "routes/routes.hpp"
#include "store/reactions.hpp"

namespace loupe::reviews {
namespace {

using PathCheck = std::function<void(Request&, Validation&)>;

std::string parse_body(Request& request, const PathCheck& check) {
    Validation validation;
    check(request, validation);
    JsonReader reader(object_body(request), validation);
    std::string emoji = reader.string("emoji", true).value_or("");
    validation.throw_if_any();
    return emoji;
}

std::string parse_query(Request& request, const PathCheck& check) {
    Validation validation;
    check(request, validation);
    auto emoji = request.query("emoji");
    if (!emoji) {
        validation.add("emoji", "Invalid input: expected string, received undefined");
    } else if (request.query_count("emoji") > 1) {
        validation.add("emoji", "Invalid input: expected string, received array");
    }
    validation.throw_if_any();
    return *emoji;
}

void add_route(Host& host, const CommentPlaceKind& kind, Method method, bool add) {
    auto handle = [&host, open = kind.open, add](Request& request, const std::string& emoji) {
        const CommentPlace place = open(request);
        Comment saved = host.db().transaction([&](soci::session& session) {
            // Deleted comments and other people's drafts are not there to react to: the answer
            // would show their body.
            auto comment = require_visible_comment(session, place.subject,
                                                   request.param("commentId"), place.user_id);
            if (!is_single_emoji(emoji)) {
                throw HttpError::bad_request("Invalid emoji");
            }
            if (add) {
                add_reaction(session, comment.id, place.user_id, emoji);
            } else {
                remove_reaction(session, comment.id, place.user_id, emoji);
            }
            return comment;
        });
        auto session = host.db().session();
        return Response::json(place_comment_json(host, *session, place, saved));
    };
    const std::string path = kind.prefix + "/comments/{commentId}/reactions";
    const auto access = kind.access(ProjectPermission::review,
                                    "You do not have permission to react to this comment");
    auto parse = [add, check = kind.check_path](Request& request) {
        return add ? parse_body(request, check) : parse_query(request, check);
    };
    host.routes().add_validated(method, path, AuthRequirement::personal_token, access, parse,
                                handle);
}

}  // namespace

void add_comment_reactions(Host& host, const std::vector<CommentPlaceKind>& kinds) {
    for (const auto& kind : kinds) {
        add_route(host, kind, Method::post, true);
        add_route(host, kind, Method::del, false);
    }
}

}  // namespace loupe::reviews
