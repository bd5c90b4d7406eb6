#include "routes/account_resources.hpp"
#include "routes/routes.hpp"

namespace loupe::auth {

void add_get_account(Host& host, TeamStore& teams) {
    host.routes().add(
        Method::get, "/accounts/{accountSlug}", AuthRequirement::project_or_personal_token,
        // Anyone the token's scope lets into the account reads it.
        RouteAccess::account(AccountPermission::member), [&host, &teams](Request& request) {
            return Response::json(
                account_details_json(host, teams, request.access().require_account()));
        });
}

}  // namespace loupe::auth
