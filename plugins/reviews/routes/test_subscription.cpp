// POST and DELETE /projects/{owner}/{project}/tests/{testId}/subscription: follow a test (its
// comments), or stop; an explicit unsubscribe is never overridden by commenting. And GET
// /_loupe/projects/{owner}/{project}/tests/{testId}/subscription, whether the caller follows it
// (for the test page's Follow button).
#include <soci/soci.h>

#include "routes/routes.hpp"
#include "store/subscriptions.hpp"

namespace loupe::reviews {

void add_test_subscription(Host& host, const CommentPlaceKind& tests) {
    for (const auto& [method, subscribed] : {std::pair{Method::post, true}, {Method::del, false}}) {
        const bool value = subscribed;
        host.routes().add_validated(
            method, tests.prefix + "/subscription", AuthRequirement::personal_token,
            RouteAccess::project(ProjectPermission::view,
                                 "You do not have permission to view this test"),
            tests.path_only(), [&host, open = tests.open, value](Request& request, bool) {
                const CommentPlace place = open(request);
                host.db().transaction([&](soci::session& session) {
                    set_test_subscription(session, place.subject.id, place.user_id, value);
                });
                return Response::json({{"subscribed", value}});
            });
    }
    host.routes().add(
        Method::get, "/_loupe" + tests.prefix + "/subscription", AuthRequirement::personal_token,
        RouteAccess::project(ProjectPermission::view),
        [&host, open = tests.open](Request& request) {
            const CommentPlace place = open(request);
            auto session = host.db().session();
            const auto subscribed = test_subscription(*session, place.subject.id, place.user_id);
            return Response::json({{"subscribed", subscribed.value_or(false)}});
        });
}

}  // namespace loupe::reviews
