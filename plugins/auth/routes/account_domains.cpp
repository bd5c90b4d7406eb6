// The email domains a team is open to: anyone signing in with a verified address on one joins
// at the team's default role. Its people read the list; its owners change it.
#include "loupe/http/json_reader.hpp"
#include "loupe/text/strings.hpp"
#include "routes/routes.hpp"

namespace loupe::auth {
namespace {

Json team_domain_json(const TeamDomain& domain) {
    return Json{{"domain", domain.domain}, {"createdAt", iso_time(domain.created_at)}};
}

std::string read_domain(Request& request) {
    Validation validation;
    JsonReader body(object_body(request), validation);
    const auto domain = body.string("domain", true, 1);
    validation.throw_if_any();
    return to_lower(trim(*domain));
}

std::string domain_param(Request& request) {
    return to_lower(request.param("domain"));
}

}  // namespace

void add_account_domains(Host& host, InviteStore& invites) {
    const auto admin_only = RouteAccess::account(AccountPermission::admin,
                                                 "You are not an administrator of this team.");

    host.routes().add(
        Method::get, "/accounts/{accountSlug}/domains", AuthRequirement::project_or_personal_token,
        RouteAccess::account(AccountPermission::member), [&invites](Request& request) {
            Json results = Json::array();
            for (const auto& domain : invites.domains(request.access().require_account())) {
                results.push_back(team_domain_json(domain));
            }
            return Response::json(results);
        });

    host.routes().add_validated(
        Method::post, "/accounts/{accountSlug}/domains", AuthRequirement::project_or_personal_token,
        admin_only, read_domain, [&invites](Request& request, const std::string& domain) {
            return Response::json(
                team_domain_json(invites.add_domain(request.access().require_account(),
                                                    request.principal().user_id, domain)),
                201);
        });

    host.routes().add_validated(Method::del, "/accounts/{accountSlug}/domains/{domain}",
                                AuthRequirement::project_or_personal_token, admin_only,
                                domain_param,
                                [&invites](Request& request, const std::string& domain) {
                                    invites.remove_domain(request.access().require_account(),
                                                          request.principal().user_id, domain);
                                    return Response::no_content();
                                });
}

}  // namespace loupe::auth
