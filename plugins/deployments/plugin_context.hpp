#pragma once
// What the deployments plugin's routes, job and commands share, built once at install().

#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "loupe/host.hpp"
#include "site/access_token.hpp"
#include "site/site_access.hpp"
#include "site/site_catalog.hpp"
#include "site/site_urls.hpp"

namespace loupe::deployments {

inline constexpr const char* compress_job_kind = "deployments.compress";

class PluginContext {
public:
    explicit PluginContext(Host& host);

    Host& host;
    SiteUrls urls;
    /// How long a signed link handed out by the API (a private site's `url`) stays valid.
    int64_t link_ttl_s;
    SiteCatalog catalog;
    SiteAccess access;

    /// The signer of site access tokens; its secret is read (or created) on first use.
    const AccessTokens& tokens();
    /// The URL the API hands out for a site: its root, signed when the site is private.
    std::string site_url(const std::string& name, bool is_public);

private:
    std::once_flag tokens_once_;
    std::optional<AccessTokens> tokens_;
};

}  // namespace loupe::deployments
