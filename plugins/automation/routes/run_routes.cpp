// GET /_loupe/projects/{owner}/{project}/automation-rules/{ruleId}/runs: a rule's run history,
// newest first, paginated as Argos lists are: each run says when, which event and build, and
// each action's outcome (status pending | success | failed, attempts, the last HTTP status and
// error, its delivery job).
#include <soci/soci.h>

#include "loupe/http/pagination.hpp"
#include "routes/rule_json.hpp"
#include "routes/rule_routes.hpp"
#include "store/rules.hpp"
#include "store/runs.hpp"

namespace loupe::automation {

void add_run_routes(Host& host) {
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
}

}  // namespace loupe::automation
