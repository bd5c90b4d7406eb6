#pragma once
// Resolves site names (slugs, aliases, private links' keys) for serving, with the reads cached
// in memory: a name → its deployment for `ttl_ms` (aliases move, deployments get pruned, links
// get revoked), a deployment's file table until evicted (it never changes once ready; re-read
// after `ttl_ms` while its gzip variants are being made), a project's access settings for
// `ttl_ms`. Instances sharing a database see each other's changes within `ttl_ms`. An expired
// entry is refreshed by one request while the others keep using it, and what nobody holds yet
// is read once however many requests want it (loupe/cache/single_flight_cache.hpp).
// THREADS: thread-safe; database reads happen outside the caches' locks.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "loupe/auth/identity.hpp"
#include "loupe/cache/single_flight_cache.hpp"
#include "loupe/db/database.hpp"
#include "site/site_content.hpp"
#include "store/settings.hpp"
#include "store/sites.hpp"

namespace loupe::deployments {

struct ProjectAccess {
    ProjectSettings settings;
    bool project_private = true;
};

struct ResolvedSite {
    SiteTarget target;
    std::shared_ptr<const SiteContent> content;
    ProjectAccess access;
};

class SiteCatalog {
public:
    SiteCatalog(Database& database, Identity& identity, int64_t ttl_ms,
                std::size_t max_cached_files);

    std::optional<ResolvedSite> resolve(const std::string& name);

private:
    /// A file table, and whether it is final (its gzip variants all made).
    struct CachedContent {
        std::shared_ptr<const SiteContent> content;
        bool final = false;
    };

    Database& database_;
    Identity& identity_;
    /// False when `ttl_ms` is 0: names, access settings and pending file tables are read again
    /// on every request (final file tables are still kept).
    bool caching_;
    SingleFlightCache<std::string, std::optional<SiteTarget>> names_;
    SingleFlightCache<int64_t, CachedContent> contents_;
    SingleFlightCache<int64_t, ProjectAccess> access_;
};

}  // namespace loupe::deployments
