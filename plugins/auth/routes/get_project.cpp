#include "routes/routes.hpp"

namespace loupe::auth {

void add_get_project(Host& host) {
    auto& identity = host.identity();
    host.routes().add(
        Method::get, "/projects/{owner}/{project}", AuthRequirement::project_or_personal_token,
        RouteAccess::project(ProjectPermission::view), [&identity](Request& request) {
            return Response::json(identity.project_json(request.access().require_project()));
        });
}

}  // namespace loupe::auth
