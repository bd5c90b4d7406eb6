// POST /projects/{owner}/{project}/changes/{changeId}/ignore and .../unignore: a recurring,
// accepted difference (a clock, an ad slot) stops asking for review, or asks again. Needs the
// `review` permission and the project's ignore feature; idempotent.
#include <soci/soci.h>

#include "ids/public_ids.hpp"
#include "metrics/test_metrics.hpp"
#include "routes/routes.hpp"
#include "store/ignored_changes.hpp"
#include "store/settings.hpp"
#include "store/test_stats.hpp"

namespace loupe::builds {
namespace {

void add_route(Host& host, const char* action, bool ignore) {
    auto& database = host.db();
    host.routes().add(
        Method::post, std::string("/projects/{owner}/{project}/changes/{changeId}/") + action,
        AuthRequirement::personal_token,
        RouteAccess::project(ProjectPermission::review,
                             "You do not have permission to ignore changes on this project"),
        [&database, ignore](Request& request) {
            const auto& principal = request.principal();
            const Project& project = request.access().require_project();
            const auto ref = parse_change_public_id(request.param("changeId"));
            Json result = database.transaction([&](soci::session& session) {
                if (!build_settings_of(session, project.id).ignore_enabled) {
                    throw HttpError::bad_request("Ignoring changes is disabled for this project");
                }
                std::optional<std::string> fingerprint;
                if (ref && test_in_project(session, project.id, ref->test_id)) {
                    fingerprint =
                        ref->hash_only
                            ? fingerprint_with_hash(session, ref->test_id, ref->fingerprint)
                            : known_fingerprint(session, ref->test_id, ref->fingerprint);
                }
                if (!fingerprint) {
                    throw HttpError::not_found("Change not found");
                }
                const IgnoreActor actor{principal.user_id};
                if (ignore) {
                    record_ignored_change(session, project.id, ref->test_id, *fingerprint, actor);
                } else {
                    remove_ignored_change(session, project.id, ref->test_id, *fingerprint, actor);
                }
                const int64_t from = period_start_ms(MetricsPeriod::last_7_days, now_ms());
                return Json{
                    {"id", change_public_id(project.name, ref->test_id, *fingerprint)},
                    {"ignored", ignore},
                    {"occurrences", change_occurrences(session, ref->test_id, *fingerprint, from)}};
            });
            return Response::json(result);
        });
}

}  // namespace

void add_change_ignore_routes(Host& host) {
    add_route(host, "ignore", true);
    add_route(host, "unignore", false);
}

}  // namespace loupe::builds
