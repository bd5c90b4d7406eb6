#pragma once
// Who may view a site. Public sites are open. A private site is served to a request that
// passes one of the access rules: today a signed link (`?loupe_access=`, then a cookie scoped
// to the site); a session rule (the web page's signed-in user with `view` permission on the
// project) plugs in as one more rule, without changing the callers.

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "loupe/http/request.hpp"
#include "site/access_token.hpp"
#include "site/site_catalog.hpp"
#include "site/site_urls.hpp"

namespace loupe::deployments {

/// True when the site is served to anyone: the project's `auth` setting, where `project`
/// follows the project's visibility and `domain-private` opens only the production alias.
bool is_public_site(const ResolvedSite& site);

/// Grants access to a private site, or not (nullopt). A grant may ask the response to set a
/// cookie (the signed link's token, so the site's other pages need no link).
struct AccessGrant {
    std::optional<std::string> set_cookie;
};
using AccessRule = std::function<std::optional<AccessGrant>(
    Request& request, const std::string& site_name, const ResolvedSite& site)>;

/// The signed-link rule: a valid token in the query (answered with a cookie) or in the cookie.
/// `tokens` is asked on use (its secret is read from the database on first use).
AccessRule signed_link_rule(std::function<const AccessTokens&()> tokens, const SiteUrls& urls);

class SiteAccess {
public:
    explicit SiteAccess(std::vector<AccessRule> rules) : rules_(std::move(rules)) {}
    /// nullopt: refuse. A public site is always granted.
    std::optional<AccessGrant> check(Request& request, const std::string& site_name,
                                     const ResolvedSite& site) const;

private:
    std::vector<AccessRule> rules_;
};

}  // namespace loupe::deployments
