// POST …/builds/{buildNumber}/reviews/{reviewId}/dismiss: the review keeps its state but stops
// counting for the build's review state.
#include <soci/soci.h>

#include "build_access.hpp"
#include "review_facts.hpp"
#include "review_recorder.hpp"
#include "routes/routes.hpp"

namespace loupe::reviews {

void add_dismiss_review(Host& host, builds::BuildsService& builds, ReviewRecorder& recorder) {
    host.routes().add_validated(
        Method::post, "/projects/{owner}/{project}/builds/{buildNumber}/reviews/{reviewId}/dismiss",
        AuthRequirement::personal_token,
        RouteAccess::project(ProjectPermission::review_dismiss,
                             "You do not have permission to dismiss this review"),
        parse_build_number_param, [&host, &builds, &recorder](Request& request, int64_t number) {
            auto access = open_build(host, builds, request, number);
            const auto review_id = parse_id(request.param("reviewId"));
            Review saved = host.db().transaction([&](soci::session& session) {
                builds.lock_build(session, access.build.id);
                auto review =
                    review_id ? find_review(session, *review_id, true) : std::optional<Review>();
                if (!review || review->build_id != access.build.id) {
                    throw HttpError::not_found("Review not found");
                }
                if (review->state == "pending") {
                    throw HttpError::bad_request("You cannot dismiss a pending review");
                }
                if (review->dismissed_at) {
                    throw HttpError::bad_request("Review already dismissed");
                }
                const int64_t now = now_ms();
                dismiss_review(session, review->id, access.user_id, now);
                review->dismissed_at = now;
                review->dismissed_by = access.user_id;
                recorder.record_state(session, access.build.id);
                return *review;
            });
            auto session = host.db().session();
            return Response::json(reviews_json(*session, host.identity(), {saved}).front());
        });
}

}  // namespace loupe::reviews
