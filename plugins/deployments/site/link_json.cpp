#include "site/link_json.hpp"

#include <string>

namespace loupe::deployments {

Json link_json(const SiteLink& link) {
    return {{"id", std::to_string(link.id)},
            {"site", link.site_name},
            {"deploymentId", std::to_string(link.deployment_id)},
            {"source", link.source},
            {"createdAt", iso_time(link.created_at)},
            {"expiresAt", iso_time(link.expires_at)}};
}

}  // namespace loupe::deployments
