#include <algorithm>

#include "loupe/http/pagination.hpp"
#include "routes/routes.hpp"

namespace loupe::auth {

void add_list_account_projects(Host& host) {
    auto& identity = host.identity();
    host.routes().add_validated(
        Method::get, "/accounts/{accountSlug}/projects",
        AuthRequirement::personal_token_for_account,
        // Each project listed is one the caller may view (Identity::visible_projects).
        RouteAccess::account(AccountPermission::member),
        [](Request& request) {
            Validation validation;
            auto pagination = parse_pagination(request, validation);
            validation.throw_if_any();
            return pagination;
        },
        [&identity](Request& request, const Pagination& pagination) {
            const auto& principal = request.principal();
            auto projects =
                identity.visible_projects(principal.user_id, request.access().require_account());
            const auto total = static_cast<int64_t>(projects.size());
            const auto first = std::min<int64_t>(pagination.offset(), total);
            const auto last = std::min<int64_t>(first + pagination.limit(), total);
            const std::vector<Project> page(projects.begin() + first, projects.begin() + last);
            Json results = Json::array();
            for (auto& resource : identity.projects_json(page)) {
                results.push_back(std::move(resource));
            }
            return Response::json(page_envelope(pagination, total, std::move(results)));
        });
}

}  // namespace loupe::auth
