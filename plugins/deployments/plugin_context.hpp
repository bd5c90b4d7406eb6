#pragma once
// What the deployments plugin's routes, job and commands share, built once at install().

#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "loupe/host.hpp"
#include "site/link_keys.hpp"
#include "site/site_access.hpp"
#include "site/site_catalog.hpp"
#include "site/site_urls.hpp"

namespace loupe::deployments {

inline constexpr const char* compress_job_kind = "deployments.compress";

/// Limits of one deployment (plugins.deployments.max_files, max_bytes): above them, 413.
struct DeploymentQuota {
    int64_t max_files = 50000;
    int64_t max_bytes = int64_t{2} * 1024 * 1024 * 1024;
};

class PluginContext {
public:
    /// Throws std::runtime_error for a bad setting (a domain next to the review page's host,
    /// a malformed duration or limit). Without a domain, asks the core for the "sites" listener.
    explicit PluginContext(Host& host);

    Host& host;
    /// The listener sites are served on when no domain is set (else null).
    Listener* sites_listener = nullptr;
    SiteUrls urls;
    /// How long a private link handed out by the API (a private site's `url`) stays valid.
    int64_t link_ttl_s;
    DeploymentQuota quota;
    SiteCatalog catalog;

    /// The deriver of private links' keys; its secret is read (or created) on first use.
    const LinkKeys& link_keys();

private:
    std::once_flag keys_once_;
    std::optional<LinkKeys> keys_;
};

}  // namespace loupe::deployments
