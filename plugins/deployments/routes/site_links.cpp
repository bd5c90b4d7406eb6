// A project's live private links, and their revocation: GET and DELETE
// /projects/{owner}/{project}/deployments/links (DELETE revokes them all, or those issued for
// ?site=NAME), DELETE /projects/{owner}/{project}/deployments/links/{linkId}. For people with
// `admin` on the project (a personal access token or the web page's session): a link opens a
// private site to whoever holds it, so those who manage the project may end it.
#include <soci/soci.h>

#include <charconv>

#include "loupe/http/http_error.hpp"
#include "loupe/http/single_query.hpp"
#include "routes/routes.hpp"
#include "site/link_json.hpp"
#include "store/links.hpp"

namespace loupe::deployments {
namespace {

/// Only those who manage the project may list or end its links: a project token (which holds
/// `view` and `upload` only) and a reviewer are refused by the core's access gate.
RouteAccess project_admin() {
    return RouteAccess::project(ProjectPermission::admin,
                                "You do not have permission to manage this project's links");
}

std::optional<std::string> site_filter(Request& request) {
    Validation validation;
    auto site = non_empty_single_query(request, "site", validation);
    validation.throw_if_any();
    return site;
}

}  // namespace

void add_site_link_routes(PluginContext& context) {
    Host& host = context.host;
    host.routes().add_validated(Method::get, "/projects/{owner}/{project}/deployments/links",
                                AuthRequirement::project_or_personal_token, project_admin(),
                                site_filter,
                                [&host](Request& request, const std::optional<std::string>& site) {
                                    const Project& project = request.access().require_project();
                                    std::vector<SiteLink> links;
                                    {
                                        auto session = host.db().session();
                                        links = live_links(*session, project.id, now_ms(), site);
                                    }
                                    Json list = Json::array();
                                    for (const auto& link : links) {
                                        list.push_back(link_json(link));
                                    }
                                    return Response::json(list);
                                });

    host.routes().add_validated(
        Method::del, "/projects/{owner}/{project}/deployments/links",
        AuthRequirement::project_or_personal_token, project_admin(), site_filter,
        [&host](Request& request, const std::optional<std::string>& site) {
            const Project& project = request.access().require_project();
            const int64_t revoked = host.db().transaction([&](soci::session& session) {
                return revoke_links(session, project.id, now_ms(), site);
            });
            host.log().info("deployments.links_revoked", {{"project", std::to_string(project.id)},
                                                          {"count", std::to_string(revoked)}});
            return Response::json({{"revoked", revoked}});
        });

    host.routes().add(
        Method::del, "/projects/{owner}/{project}/deployments/links/{linkId}",
        AuthRequirement::project_or_personal_token, project_admin(), [&host](Request& request) {
            const Project& project = request.access().require_project();
            const std::string& text = request.param("linkId");
            int64_t id = 0;
            const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), id);
            if (error != std::errc() || end != text.data() + text.size() || id <= 0) {
                throw HttpError::not_found("Link not found");
            }
            const bool revoked = host.db().transaction([&](soci::session& session) {
                return revoke_link(session, project.id, id, now_ms());
            });
            if (!revoked) {
                throw HttpError::not_found("Link not found");
            }
            host.log().info("deployments.link_revoked",
                            {{"project", std::to_string(project.id)}, {"link", text}});
            return Response::no_content();
        });
}

}  // namespace loupe::deployments
