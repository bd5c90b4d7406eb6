#pragma once
// The deployments plugin's endpoints, one per file.

#include "plugin_context.hpp"

namespace loupe::deployments {

void add_create_deployment(PluginContext& context);  ///< POST /deployments
void add_finalize_deployment(
    PluginContext& context);                      ///< POST /deployments/{deploymentId}/finalize
void add_get_deployment(PluginContext& context);  ///< GET /deployments/{deploymentId}
/// GET /projects/{owner}/{project}/deployments
void add_list_deployments(PluginContext& context);
/// GET/DELETE /projects/{owner}/{project}/deployments/links, DELETE .../links/{linkId}
void add_site_link_routes(PluginContext& context);
/// GET/PUT /projects/{owner}/{project}/domain: the project's production domain
void add_project_domain_routes(PluginContext& context);
/// Sites: GET /d/{site}/{path...} on the sites listener, or GET /{path...} on {site}.{domain}
/// when a domain is set; on the review page's host, GET /d/{site}/{path...} redirects there.
void add_site_routes(PluginContext& context);

}  // namespace loupe::deployments
