// GET /projects/{owner}/{project}/builds/{buildNumber}: one build of the project, by number.
#include <soci/soci.h>

#include "build_resources.hpp"
#include "routes/routes.hpp"
#include "validation.hpp"

namespace loupe::builds {

void add_get_build(Host& host) {
    auto& database = host.db();
    host.routes().add_validated(
        Method::get, "/projects/{owner}/{project}/builds/{buildNumber}",
        AuthRequirement::project_or_personal_token, RouteAccess::project(ProjectPermission::view),
        [](Request& request) {
            Validation validation;
            auto number = parse_positive_integer(request.param("buildNumber"), validation);
            validation.throw_if_any();
            return *number;
        },
        [&, host_ptr = &host](Request& request, int64_t number) {
            const auto& principal = request.principal();
            const Project& project = request.access().require_project();
            auto session = database.session();
            auto build = find_build_by_number(*session, project.id, number);
            if (!build) {
                throw principal.is_project() ? HttpError::unauthorized() : HttpError::not_found();
            }
            return Response::json(render_build(*session, *build, project, host_ptr->public_url()));
        });
}

}  // namespace loupe::builds
