// PATCH /projects/{owner}/{project}: changes the fields present in the body (absent ones stay
// as they are; null restores a nullable field's default), each through the owner of the field
// (core for the identity fields, the plugins for their settings), all in one transaction.
// Fields no one lets change are ignored, as Argos ignores keys its schema does not know.
#include <soci/soci.h>

#include "loupe/http/json_reader.hpp"
#include "routes/routes.hpp"

namespace loupe::auth {

void add_update_project(Host& host) {
    auto& identity = host.identity();
    auto& database = host.db();
    host.routes().add(Method::patch, "/projects/{owner}/{project}",
                      AuthRequirement::project_or_personal_token,
                      RouteAccess::project(ProjectPermission::admin,
                                           "You are not an administrator of this project."),
                      [&identity, &database](Request& request) {
                          const Json& body = object_body(request);
                          const Project& project = request.access().require_project();
                          database.transaction([&](soci::session& session) {
                              for (const auto& [field, value] : body.items()) {
                                  if (identity.is_changeable_project_field(field)) {
                                      identity.change_project_field(session, project, field, value);
                                  }
                              }
                          });
                          const auto changed = identity.find_project(project.id);
                          if (!changed) {
                              throw HttpError::not_found("Not found");
                          }
                          return Response::json(identity.project_json(*changed));
                      });
}

}  // namespace loupe::auth
