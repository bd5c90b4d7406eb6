// POST and DELETE …/builds/{buildNumber}/subscription: follow a build's comments, reviews and
// status changes, or stop (an explicit unsubscribe is never overridden by commenting).
#include <soci/soci.h>

#include "build_access.hpp"
#include "routes/routes.hpp"
#include "store/subscriptions.hpp"

namespace loupe::reviews {

void add_build_subscription(Host& host, builds::BuildsService& builds) {
    for (const auto& [method, subscribed] : {std::pair{Method::post, true}, {Method::del, false}}) {
        const bool value = subscribed;
        host.routes().add_validated(
            method, "/projects/{owner}/{project}/builds/{buildNumber}/subscription",
            AuthRequirement::personal_token,
            RouteAccess::project(ProjectPermission::view,
                                 "You do not have permission to view this build"),
            parse_build_number_param, [&host, &builds, value](Request& request, int64_t number) {
                auto access = open_build(host, builds, request, number);
                host.db().transaction([&](soci::session& session) {
                    set_build_subscription(session, access.build.id, access.user_id, value);
                });
                return Response::json(
                    {{"buildId", std::to_string(access.build.id)}, {"subscribed", value}});
            });
    }
}

}  // namespace loupe::reviews
