// GET /_loupe/projects/{owner}/{project}/automation-rules/{ruleId}/runs: a rule's run history,
// newest first, paginated as Argos lists are: each run says when, which event and build, and
// each action's outcome (status pending | success | failed, attempts, the last HTTP status and
// error, its delivery job). POST …/{ruleId}/test sends the rule's messages now, as a test run.
#include <soci/soci.h>

#include "loupe/http/pagination.hpp"
#include "routes/rule_json.hpp"
#include "routes/rule_routes.hpp"
#include "rules/rule_trigger.hpp"
#include "store/rules.hpp"
#include "store/runs.hpp"

namespace loupe::automation {

void add_run_routes(Host& host, builds::BuildsService& builds, const ActionDelivery& delivery) {
    auto& database = host.db();
    host.routes().add_validated(
        Method::get, "/_loupe/projects/{owner}/{project}/automation-rules/{ruleId}/runs",
        AuthRequirement::personal_token,
        RouteAccess::project(ProjectPermission::admin,
                             "You must be an administrator of this project to read the runs of "
                             "its automation rules."),
        [](Request& request) {
            Validation validation;
            const Pagination pagination = parse_pagination(request, validation);
            validation.throw_if_any();
            return pagination;
        },
        [&database](Request& request, const Pagination& pagination) {
            const auto id = parse_rule_id(request.param("ruleId"));
            auto session = database.session();
            if (!id || !find_rule(*session, request.access().require_project().id, *id)) {
                throw HttpError::not_found("Automation rule not found");
            }
            return Response::json(
                page_envelope(pagination, count_runs(*session, *id),
                              runs_json(*session, *id, pagination.limit(), pagination.offset())));
        });

    // Sends the rule's messages now, about the newest build of the default base branch, marked
    // as a test; the run shows in the history with event `test`.
    host.routes().add(
        Method::post, "/_loupe/projects/{owner}/{project}/automation-rules/{ruleId}/test",
        AuthRequirement::personal_token,
        RouteAccess::project(ProjectPermission::admin,
                             "You must be an administrator of this project to test its "
                             "automation rules."),
        [&host, &builds, &delivery](Request& request) {
            const auto id = parse_rule_id(request.param("ruleId"));
            if (!id) {
                throw HttpError::not_found("Automation rule not found");
            }
            const Project& project = request.access().require_project();
            const int64_t run_id = host.db().transaction([&](soci::session& session) {
                return run_rule_test(host, session, builds, delivery, project, *id);
            });
            return Response::json(Json{{"runId", std::to_string(run_id)}}, 202);
        });
}

}  // namespace loupe::automation
