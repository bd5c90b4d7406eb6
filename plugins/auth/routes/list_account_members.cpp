#include "loupe/http/pagination.hpp"
#include "loupe/http/single_query.hpp"
#include "loupe/text/strings.hpp"
#include "routes/account_resources.hpp"
#include "routes/routes.hpp"

namespace loupe::auth {
namespace {

struct MemberListInput {
    Pagination pagination;
    MemberQuery query;
};

/// `levels` is a comma-separated list of roles (Argos's one parameter, not a repeated one).
void read_member_levels(const std::string& text, MemberQuery& query, Validation& validation) {
    for (const auto& part : split(text, ',')) {
        const auto role = parse_role(trim(part));
        if (!role) {
            validation.add("levels",
                           "Invalid levels. Expected a comma-separated list of: owner, member, "
                           "contributor.");
            return;
        }
        query.roles.push_back(*role);
    }
}

MemberListInput read_member_list_input(Request& request) {
    Validation validation;
    MemberListInput input;
    input.pagination = parse_pagination(request, validation);
    if (auto search = single_query(request, "search", validation)) {
        input.query.search = *search;
    }
    if (auto levels = single_query(request, "levels", validation); levels && !levels->empty()) {
        read_member_levels(*levels, input.query, validation);
    }
    if (auto order = single_query(request, "orderBy", validation)) {
        if (*order == "name-asc") {
            input.query.order = MemberQuery::Order::name_asc;
        } else if (*order == "name-desc") {
            input.query.order = MemberQuery::Order::name_desc;
        } else if (*order != "date") {
            validation.add("orderBy",
                           "Invalid option: expected one of \"date\"|\"name-asc\"|\"name-desc\"");
        }
    }
    validation.throw_if_any();
    input.query.offset = input.pagination.offset();
    input.query.limit = input.pagination.limit();
    return input;
}

}  // namespace

void add_list_account_members(Host& host, TeamStore& teams) {
    host.routes().add_validated(
        Method::get, "/accounts/{accountSlug}/members", AuthRequirement::project_or_personal_token,
        // The team's people read who is in it; only its owners change it.
        RouteAccess::account(AccountPermission::member), read_member_list_input,
        [&teams](Request& request, const MemberListInput& input) {
            const MemberPage page =
                teams.list_members(request.access().require_account(), input.query);
            Json results = Json::array();
            for (const auto& member : page.members) {
                results.push_back(team_member_json(member));
            }
            return Response::json(page_envelope(input.pagination, page.total, std::move(results)));
        });
}

}  // namespace loupe::auth
