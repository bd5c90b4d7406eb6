#include "loupe/http/json_reader.hpp"
#include "routes/account_resources.hpp"
#include "routes/routes.hpp"

namespace loupe::auth {
namespace {

struct MemberLevelInput {
    int64_t member_account_id = 0;
    Role level = Role::member;
};

MemberLevelInput read_member_level_input(Request& request) {
    MemberLevelInput input;
    input.member_account_id = member_account_id_of(request);
    Validation validation;
    JsonReader body(object_body(request), validation);
    const auto level = body.one_of("level", true, {"owner", "member", "contributor"});
    validation.throw_if_any();
    input.level = parse_role(*level).value_or(Role::member);
    return input;
}

}  // namespace

void add_set_account_member_level(Host& host, TeamStore& teams) {
    host.routes().add_validated(
        Method::patch, "/accounts/{accountSlug}/members/{userId}",
        AuthRequirement::project_or_personal_token,
        RouteAccess::account(AccountPermission::admin,
                             "You are not an administrator of this team."),
        read_member_level_input, [&teams](Request& request, const MemberLevelInput& input) {
            return Response::json(team_member_json(teams.set_member_role(
                request.access().require_account(), request.principal().user_id,
                input.member_account_id, input.level)));
        });
}

}  // namespace loupe::auth
