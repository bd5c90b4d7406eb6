#include "routes/account_resources.hpp"
#include "routes/routes.hpp"

namespace loupe::auth {

void add_remove_account_member(Host& host, TeamStore& teams) {
    host.routes().add_validated(
        Method::del, "/accounts/{accountSlug}/members/{userId}",
        AuthRequirement::project_or_personal_token,
        RouteAccess::account(AccountPermission::admin,
                             "You are not an administrator of this team."),
        member_account_id_of, [&teams](Request& request, int64_t member_account_id) {
            teams.remove_member(request.access().require_account(), request.principal().user_id,
                                member_account_id);
            return Response::no_content();
        });
}

}  // namespace loupe::auth
