// What the caller may do on a project or an account, for the page to offer only the controls
// that the server would accept (a viewer gets no Approve button, a member no role menu). The
// server decides each request again: these answers only shape the page.

#include "routes/routes.hpp"

namespace loupe::web {

namespace {

Json project_permission_names(const Permissions& held) {
    Json names = Json::array();
    const std::pair<bool, const char*> all[] = {{held.view, "view"},
                                                {held.view_settings, "view_settings"},
                                                {held.review, "review"},
                                                {held.review_dismiss, "review_dismiss"},
                                                {held.admin, "admin"}};
    for (const auto& [on, name] : all) {
        if (on) {
            names.push_back(name);
        }
    }
    return names;
}

}  // namespace

void add_permissions_routes(Host& host) {
    host.routes().add(
        Method::get, "/_loupe/projects/{owner}/{project}/permissions",
        AuthRequirement::personal_token, RouteAccess::project(ProjectPermission::view),
        [](Request& request) {
            return Response::json(
                Json{{"permissions", project_permission_names(request.access().permissions)}});
        });
    // The account guard lets the account's members in; `admin` is what Identity::can_administer
    // says (staff, the owner of a personal account, a team owner).
    host.routes().add(
        Method::get, "/_loupe/accounts/{accountSlug}/permissions", AuthRequirement::personal_token,
        RouteAccess::account(AccountPermission::member), [&host](Request& request) {
            const Account& account = request.access().require_account();
            Json names = Json::array({"member"});
            if (request.principal().is_user() &&
                host.identity().can_administer(request.principal().user_id, account)) {
                names.push_back("admin");
            }
            return Response::json(Json{{"permissions", std::move(names)}});
        });
}

}  // namespace loupe::web
