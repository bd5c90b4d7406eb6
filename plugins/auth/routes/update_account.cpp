#include "loupe/http/json_reader.hpp"
#include "routes/account_resources.hpp"
#include "routes/routes.hpp"

namespace loupe::auth {

void add_update_account(Host& host, TeamStore& teams) {
    host.routes().add_validated(
        Method::patch, "/accounts/{accountSlug}", AuthRequirement::project_or_personal_token,
        RouteAccess::account(AccountPermission::admin,
                             "You are not an administrator of this team."),
        [](Request& request) {
            Validation validation;
            JsonReader body(object_body(request), validation);
            const auto level = body.one_of("defaultUserLevel", true, {"member", "contributor"});
            validation.throw_if_any();
            return parse_role(*level).value_or(Role::member);
        },
        [&host, &teams](Request& request, Role level) {
            const Account& account = request.access().require_account();
            teams.set_default_user_level(account, request.principal().user_id, level);
            return Response::json(account_details_json(host, teams, account));
        });
}

}  // namespace loupe::auth
