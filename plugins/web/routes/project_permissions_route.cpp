// What the caller may do on a project, for the page to offer only the controls that the
// server would accept (a viewer gets no Approve button). The server decides each request
// again: this answer only shapes the page.

#include "routes/routes.hpp"

namespace loupe::web {

void add_project_permissions_route(Host& host) {
    host.routes().add(Method::get, "/_loupe/projects/{owner}/{project}/permissions",
                      AuthRequirement::personal_token,
                      RouteAccess::project(ProjectPermission::view), [](Request& request) {
                          const Permissions& held = request.access().permissions;
                          Json names = Json::array();
                          const std::pair<bool, const char*> all[] = {
                              {held.view, "view"},
                              {held.view_settings, "view_settings"},
                              {held.review, "review"},
                              {held.review_dismiss, "review_dismiss"},
                              {held.admin, "admin"}};
                          for (const auto& [on, name] : all) {
                              if (on) {
                                  names.push_back(name);
                              }
                          }
                          return Response::json(Json{{"permissions", std::move(names)}});
                      });
}

}  // namespace loupe::web
