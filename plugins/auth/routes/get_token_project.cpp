#include "routes/routes.hpp"

namespace loupe::auth {

void add_get_token_project(Host& host) {
    auto& identity = host.identity();
    host.routes().add(Method::get, "/project", AuthRequirement::project_token,
                      [&identity](Request& request) {
                          auto project = identity.find_project(request.principal().project_id);
                          if (!project) {
                              throw HttpError::unauthorized();
                          }
                          return Response::json(identity.project_json(*project));
                      });
}

}  // namespace loupe::auth
