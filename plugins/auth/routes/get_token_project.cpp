#include "routes/routes.hpp"

namespace loupe::auth {

void add_get_token_project(Host& host) {
    auto& identity = host.identity();
    host.routes().add(
        Method::get, "/project", AuthRequirement::project_token,
        RouteAccess::token_project(ProjectPermission::view), [&identity](Request& request) {
            return Response::json(identity.project_json(request.access().require_project()));
        });
}

}  // namespace loupe::auth
