// Thread operations on any comment of a thread, answering with the thread's root:
// POST …/resolve and …/unresolve (review permission), POST and DELETE …/subscription (view).
#include <soci/soci.h>

#include "comment_access.hpp"
#include "comment_facts.hpp"
#include "routes/routes.hpp"
#include "store/subscriptions.hpp"

namespace loupe::reviews {
namespace {

using ThreadChange = std::function<void(soci::session&, Comment& root, int64_t user_id)>;

void add_thread_route(Host& host, builds::BuildsService& builds, Method method,
                      const std::string& action, ProjectPermission permission,
                      const std::string& refusal, ThreadChange change) {
    host.routes().add_validated(
        method, "/projects/{owner}/{project}/builds/{buildNumber}/comments/{commentId}/" + action,
        AuthRequirement::personal_token, RouteAccess::project(permission, refusal),
        parse_build_number_param, [&host, &builds, change](Request& request, int64_t number) {
            auto access = open_build(host, builds, request, number);
            Comment saved = host.db().transaction([&](soci::session& session) {
                auto root =
                    require_thread_root(session, access.build.id, request.param("commentId"));
                change(session, root, access.user_id);
                return root;
            });
            auto session = host.db().session();
            return Response::json(comment_json(*session, host.identity(), saved));
        });
}

}  // namespace

void add_comment_threads(Host& host, builds::BuildsService& builds) {
    add_thread_route(host, builds, Method::post, "resolve", ProjectPermission::review,
                     "You do not have permission to resolve this thread",
                     [](soci::session& session, Comment& root, int64_t) {
                         if (!root.resolved_at) {
                             root.resolved_at = now_ms();
                             set_resolved(session, root.id, root.resolved_at);
                         }
                     });
    add_thread_route(host, builds, Method::post, "unresolve", ProjectPermission::review,
                     "You do not have permission to reopen this thread",
                     [](soci::session& session, Comment& root, int64_t) {
                         if (root.resolved_at) {
                             root.resolved_at.reset();
                             set_resolved(session, root.id, std::nullopt);
                         }
                     });
    for (const auto& [method, subscribed] : {std::pair{Method::post, true}, {Method::del, false}}) {
        const bool value = subscribed;
        add_thread_route(host, builds, method, "subscription", ProjectPermission::view,
                         "You do not have permission to access this thread",
                         [value](soci::session& session, Comment& root, int64_t user_id) {
                             set_thread_subscription(session, root.id, user_id, value);
                         });
    }
}

}  // namespace loupe::reviews
