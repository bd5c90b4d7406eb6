#include "routes/routes.hpp"

namespace loupe::auth {

void add_get_project(Host& host) {
    auto& identity = host.identity();
    host.routes().add(Method::get, "/projects/{owner}/{project}",
                      AuthRequirement::project_or_personal_token, [&identity](Request& request) {
                          auto project = identity.authorize_project(request.principal(),
                                                                    request.param("owner"),
                                                                    request.param("project"));
                          return Response::json(identity.project_json(project));
                      });
}

}  // namespace loupe::auth
