#pragma once
// Shared by the deployment endpoints: the deployment a project token may see, and its URL.

#include <string>

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

/// The deployment's URL as the API hands it out: its slug's root, signed when private.
std::string deployment_url(PluginContext& context, soci::session& session,
                           const Deployment& deployment);

/// Who may view the project's sites: its deployment settings and its visibility.
ProjectAccess project_access(PluginContext& context, soci::session& session, int64_t project_id);

/// The URL the API hands out for one of the project's site names (a slug when `alias_type` is
/// empty, else an alias of that type): the site's root, signed when the site is private.
std::string site_url_for(PluginContext& context, const ProjectAccess& access,
                         const std::string& name, const std::string& environment,
                         const std::string& alias_type = "");

}  // namespace loupe::deployments
