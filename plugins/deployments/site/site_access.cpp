#include "site/site_access.hpp"

namespace loupe::deployments {

bool is_public_site(const ResolvedSite& site) {
    const std::string& auth = site.access.settings.auth;
    if (auth == "public") {
        return true;
    }
    if (auth == "domain-private") {
        return site.target.alias_type == "production";
    }
    if (auth == "project") {
        return !site.access.project_private;
    }
    return false;  // "private", and any value this version does not know
}

bool may_view(const ResolvedSite& site, int64_t now_ms) {
    if (site.target.via_link) {
        return site.target.link_expires_at > now_ms;
    }
    return is_public_site(site);
}

}  // namespace loupe::deployments
