// GET /projects/{owner}/{project}/deployments: a project's deployments, newest first, in pages,
// optionally of one branch or environment, each with the aliases that point at it.
#include <soci/soci.h>

#include "deployment_json.hpp"
#include "loupe/http/http_error.hpp"
#include "loupe/http/pagination.hpp"
#include "loupe/http/single_query.hpp"
#include "routes/deployment_lookup.hpp"
#include "routes/routes.hpp"
#include "store/aliases.hpp"

namespace loupe::deployments {
namespace {

struct ListDeploymentsInput {
    Pagination pagination;
    std::optional<std::string> branch;
    std::optional<std::string> environment;
};

ListDeploymentsInput parse(Request& request) {
    Validation validation;
    ListDeploymentsInput input;
    input.pagination = parse_pagination(request, validation);
    input.branch = non_empty_single_query(request, "branch", validation);
    input.environment = single_query(request, "environment", validation);
    if (input.environment && *input.environment != "preview" &&
        *input.environment != "production") {
        validation.add("environment", "Invalid option: expected one of \"preview\"|\"production\"");
    }
    validation.throw_if_any();
    return input;
}

}  // namespace

void add_list_deployments(PluginContext& context) {
    Host& host = context.host;
    host.routes().add_validated(
        Method::get, "/projects/{owner}/{project}/deployments",
        AuthRequirement::project_or_personal_token,
        // The URLs handed out open private sites: the caller needs `view` on the project.
        RouteAccess::project(ProjectPermission::view), parse,
        [&context, &host](Request& request, const ListDeploymentsInput& input) {
            const Project& project = request.access().require_project();
            const DeploymentFilter filter{project.id, input.branch, input.environment};
            int64_t total = 0;
            std::vector<Deployment> deployments;
            std::map<int64_t, std::vector<Alias>> aliases;
            ProjectAccess access;
            {
                auto session = host.db().session();
                total = count_deployments(*session, filter);
                deployments = list_deployments(*session, filter, input.pagination.limit(),
                                               input.pagination.offset());
                std::vector<int64_t> ids;
                for (const auto& deployment : deployments) {
                    ids.push_back(deployment.id);
                }
                aliases = aliases_of(*session, ids);
                access = project_access(context, *session, project.id);
            }

            // Every URL at once: the private links they need are issued in one transaction.
            std::vector<SiteUrlRequest> sites;
            for (const auto& deployment : deployments) {
                sites.push_back({deployment.id, deployment.slug, deployment.environment, ""});
                if (const auto found = aliases.find(deployment.id); found != aliases.end()) {
                    for (const auto& alias : found->second) {
                        sites.push_back(
                            {deployment.id, alias.name, deployment.environment, alias.type});
                    }
                }
            }
            const std::vector<std::string> urls = site_urls(context, project.id, access, sites);

            Json results = Json::array();
            std::size_t next_url = 0;
            for (const auto& deployment : deployments) {
                Json rendered = deployment_json(deployment, urls[next_url++]);
                rendered["prNumber"] = deployment.pr_number ? Json(*deployment.pr_number) : Json();
                Json alias_list = Json::array();
                if (const auto found = aliases.find(deployment.id); found != aliases.end()) {
                    for (const auto& alias : found->second) {
                        alias_list.push_back({{"name", alias.name},
                                              {"type", alias.type},
                                              {"url", urls[next_url++]}});
                    }
                }
                rendered["aliases"] = std::move(alias_list);
                results.push_back(std::move(rendered));
            }
            return Response::json(page_envelope(input.pagination, total, std::move(results)));
        });
}

}  // namespace loupe::deployments
