// POST /projects/{owner}/{project}/changes/{changeId}/ignore and .../unignore: a recurring,
// accepted difference (a clock, an ad slot) stops asking for review, or asks again. Needs the
// `review` permission and the project's ignore feature; idempotent.
#include <soci/soci.h>

#include "diff_json.hpp"
#include "metrics/test_metrics.hpp"
#include "routes/routes.hpp"
#include "store/ignored_changes.hpp"
#include "store/settings.hpp"
#include "store/test_stats.hpp"

namespace loupe::builds {
namespace {

struct ChangeRef {
    int64_t test_id = 0;
    std::string hash;  ///< 16 lower-case hex digits: the fingerprint's last segment
};

// `<testId>-<16 hex>` as change_id() writes it; anything else names no change.
std::optional<ChangeRef> parse_change_id(const std::string& id) {
    const auto dash = id.find('-');
    if (dash == std::string::npos || dash == 0 || dash > 18 || id.size() != dash + 17) {
        return std::nullopt;
    }
    ChangeRef ref;
    for (std::size_t i = 0; i < dash; ++i) {
        if (id[i] < '0' || id[i] > '9') {
            return std::nullopt;
        }
        ref.test_id = ref.test_id * 10 + (id[i] - '0');
    }
    ref.hash = id.substr(dash + 1);
    for (char c : ref.hash) {
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
            return std::nullopt;
        }
    }
    return ref;
}

void add_route(Host& host, const char* action, bool ignore) {
    auto& identity = host.identity();
    auto& database = host.db();
    host.routes().add(
        Method::post, std::string("/projects/{owner}/{project}/changes/{changeId}/") + action,
        AuthRequirement::personal_token, [&identity, &database, ignore](Request& request) {
            const auto& principal = request.principal();
            auto project = identity.authorize_project(principal, request.param("owner"),
                                                      request.param("project"));
            if (!identity.permissions(principal.user_id, project).review) {
                throw HttpError::forbidden(
                    "You do not have permission to ignore changes on this project");
            }
            const auto ref = parse_change_id(request.param("changeId"));
            const std::string change = request.param("changeId");
            Json result = database.transaction([&](soci::session& session) {
                if (!build_settings_of(session, project.id).ignore_enabled) {
                    throw HttpError::bad_request("Ignoring changes is disabled for this project");
                }
                std::optional<std::string> fingerprint;
                if (ref && test_in_project(session, project.id, ref->test_id)) {
                    fingerprint = fingerprint_with_hash(session, ref->test_id, ref->hash);
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
                    {"id", change_id(ref->test_id, *fingerprint)},
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
