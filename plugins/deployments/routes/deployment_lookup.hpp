#pragma once
// Shared by the deployment endpoints: the deployment a project token may see, and the URLs the
// API hands out for sites.

#include <string>
#include <vector>

#include "loupe/auth/principal.hpp"
#include "plugin_context.hpp"
#include "store/deployment.hpp"

namespace soci {
class session;
}

namespace loupe::deployments {

/// The deployment `id_text` names: 404 "Deployment not found" when it is malformed or unknown,
/// 401 "Unauthorized" when it belongs to another project than the token's.
Deployment visible_deployment(soci::session& session, Dialect dialect, const std::string& id_text,
                              const Principal& principal, bool for_update = false);

/// Who may view the project's sites: its deployment settings and its visibility.
ProjectAccess project_access(PluginContext& context, soci::session& session, int64_t project_id);

/// One site of a project the API hands a URL out for: a deployment's slug (`alias_type`
/// empty) or an alias of that type pointing at it.
struct SiteUrlRequest {
    int64_t deployment_id = 0;
    std::string name;
    std::string environment;
    std::string alias_type;
};

/// The URLs of these sites, in order: a public site's root; for a private one, the root of a
/// private link to that deployment, issued for that name: an "api" link reused while it has at
/// least half of link_ttl left, else a new one (written in a transaction of its own).
std::vector<std::string> site_urls(PluginContext& context, int64_t project_id,
                                   const ProjectAccess& access,
                                   const std::vector<SiteUrlRequest>& sites);

/// The deployment's URL as the API hands it out (its slug's site_urls()).
std::string deployment_url(PluginContext& context, const Deployment& deployment);

}  // namespace loupe::deployments
