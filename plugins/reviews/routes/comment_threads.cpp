// Thread operations on any comment of a thread, on a build or a test, answering with the
// thread's root: POST …/resolve and …/unresolve (review permission), POST and DELETE
// …/subscription (view).
#include <soci/soci.h>

#include "comment_access.hpp"
#include "routes/routes.hpp"
#include "store/subscriptions.hpp"

namespace loupe::reviews {
namespace {

using ThreadChange = std::function<void(soci::session&, Comment& root, int64_t user_id)>;

void add_thread_route(Host& host, const CommentPlaceKind& kind, Method method,
                      const std::string& action, ProjectPermission permission,
                      const std::string& refusal, ThreadChange change) {
    host.routes().add_validated(
        method, kind.prefix + "/comments/{commentId}/" + action, AuthRequirement::personal_token,
        kind.access(permission, refusal), kind.path_only(),
        [&host, open = kind.open, change](Request& request, bool) {
            const CommentPlace place = open(request);
            Comment saved = host.db().transaction([&](soci::session& session) {
                auto root = require_thread_root(session, place.subject, request.param("commentId"));
                change(session, root, place.user_id);
                return root;
            });
            auto session = host.db().session();
            return Response::json(place_comment_json(host, *session, place, saved));
        });
}

}  // namespace

void add_comment_threads(Host& host, const std::vector<CommentPlaceKind>& kinds) {
    for (const auto& kind : kinds) {
        add_thread_route(host, kind, Method::post, "resolve", ProjectPermission::review,
                         "You do not have permission to resolve this thread",
                         [](soci::session& session, Comment& root, int64_t) {
                             if (!root.resolved_at) {
                                 root.resolved_at = now_ms();
                                 set_resolved(session, root.id, root.resolved_at);
                             }
                         });
        add_thread_route(host, kind, Method::post, "unresolve", ProjectPermission::review,
                         "You do not have permission to reopen this thread",
                         [](soci::session& session, Comment& root, int64_t) {
                             if (root.resolved_at) {
                                 root.resolved_at.reset();
                                 set_resolved(session, root.id, std::nullopt);
                             }
                         });
        for (const auto& [method, subscribed] :
             {std::pair{Method::post, true}, {Method::del, false}}) {
            const bool value = subscribed;
            add_thread_route(host, kind, method, "subscription", ProjectPermission::view,
                             "You do not have permission to access this thread",
                             [value](soci::session& session, Comment& root, int64_t user_id) {
                                 set_thread_subscription(session, root.id, user_id, value);
                             });
        }
    }
}

}  // namespace loupe::reviews
