// GET /_loupe/reviews/waiting: the builds waiting for the caller's review, across the projects
// they may still review, the oldest request first: what the page lists on the home page and
// offers as "next" after a review. Each entry is the Build resource with its project, who asked
// and when.
#include <soci/soci.h>

#include "routes/routes.hpp"
#include "store/requested_reviewers.hpp"

namespace loupe::reviews {
namespace {

/// The most builds one answer lists.
constexpr int max_waiting = 50;

}  // namespace

void add_waiting_reviews(Host& host, builds::BuildsService& builds) {
    host.routes().add(
        Method::get, "/_loupe/reviews/waiting", AuthRequirement::personal_token,
        RouteAccess::signed_in(), [&host, &builds](Request& request) {
            const int64_t user_id = request.principal().user_id;
            auto& identity = host.identity();
            auto session = host.db().session();
            Json listed = Json::array();
            for (const auto& waiting : waiting_reviews(*session, user_id, max_waiting)) {
                const auto build = builds.find_build_by_id(*session, waiting.build_id);
                const auto project =
                    build ? identity.find_project(build->project_id) : std::optional<Project>();
                // A request outlives access to the project: only what they may review shows.
                if (!project || !identity.permissions(user_id, *project).review) {
                    continue;
                }
                listed.push_back(Json{
                    {"project", {{"account", project->account_slug}, {"name", project->name}}},
                    {"build", builds.build_json(*session, *build, *project)},
                    {"requestedAt", iso_time(waiting.requested_at)},
                    {"requestedBy",
                     waiting.requested_by ? identity.user_ref(*waiting.requested_by) : Json()}});
            }
            return Response::json(Json{{"builds", std::move(listed)}});
        });
}

}  // namespace loupe::reviews
