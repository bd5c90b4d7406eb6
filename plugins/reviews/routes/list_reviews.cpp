// GET …/builds/{buildNumber}/reviews: every review of the build, oldest first, dismissed ones
// included; other users' drafts stay private.
#include <soci/soci.h>

#include "build_access.hpp"
#include "review_facts.hpp"
#include "routes/routes.hpp"

namespace loupe::reviews {

void add_list_reviews(Host& host, builds::BuildsService& builds) {
    host.routes().add_validated(
        Method::get, "/projects/{owner}/{project}/builds/{buildNumber}/reviews",
        AuthRequirement::personal_token,
        RouteAccess::project(ProjectPermission::view,
                             "You do not have permission to view this build"),
        parse_build_number_param, [&host, &builds](Request& request, int64_t number) {
            auto access = open_build(host, builds, request, number);
            auto session = host.db().session();
            auto reviews = build_reviews(*session, access.build.id);
            std::erase_if(reviews, [&](const Review& review) {
                return review.state == "pending" && review.user_id != access.user_id;
            });
            return Response::json(reviews_json(*session, host.identity(), reviews));
        });
}

}  // namespace loupe::reviews
