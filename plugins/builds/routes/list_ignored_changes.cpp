// GET /projects/{owner}/{project}/ignored-changes: the changes the project ignores, the most
// recently ignored first, each with the test it belongs to.
#include <soci/soci.h>

#include "ids/public_ids.hpp"
#include "loupe/http/pagination.hpp"
#include "routes/routes.hpp"
#include "store/project_tests.hpp"
#include "store/test_stats.hpp"

namespace loupe::builds {
namespace {

Pagination parse_ignored_changes_input(Request& request) {
    Validation validation;
    auto pagination = parse_pagination(request, validation);
    validation.throw_if_any();
    return pagination;
}

}  // namespace

void add_list_ignored_changes(Host& host) {
    auto& database = host.db();
    host.routes().add_validated(
        Method::get, "/projects/{owner}/{project}/ignored-changes",
        AuthRequirement::project_or_personal_token, RouteAccess::project(ProjectPermission::view),
        parse_ignored_changes_input, [&database](Request& request, const Pagination& pagination) {
            const Project& project = request.access().require_project();
            auto session = database.session();
            const auto page =
                ignored_changes_page(*session, project.id, pagination.offset(), pagination.limit());
            std::vector<int64_t> test_ids;
            for (const auto& change : page.changes) {
                test_ids.push_back(change.test_id);
            }
            const auto tests = tests_by_id(*session, test_ids);
            Json results = Json::array();
            for (const auto& change : page.changes) {
                const auto test = tests.find(change.test_id);
                if (test == tests.end()) {
                    continue;
                }
                results.push_back(
                    Json{{"id", change_public_id(project.name, change.test_id, change.fingerprint)},
                         {"test",
                          {{"id", test_public_id(project.name, change.test_id)},
                           {"name", test->second.name},
                           {"buildName", test->second.build_name}}}});
            }
            return Response::json(page_envelope(pagination, page.total, std::move(results)));
        });
}

}  // namespace loupe::builds
