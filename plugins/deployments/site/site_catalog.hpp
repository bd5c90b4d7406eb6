#pragma once
// Resolves site names (slugs, aliases, private links' keys) for serving, with the reads cached in
// memory: a name → its deployment for `ttl_ms` (aliases move, deployments get pruned), a
// deployment's file table until evicted (it never changes once ready; re-read after `ttl_ms` while
// its gzip variants are being made), a project's access settings for `ttl_ms`. Instances sharing a
// database see each other's changes within `ttl_ms`. An expired entry is refreshed by one request
// while the others keep using it, and a file table nobody holds yet is read once however many
// requests want it. THREADS: thread-safe; database reads happen outside the lock.

#include <chrono>
#include <cstdint>
#include <future>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include "loupe/auth/identity.hpp"
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
    using Clock = std::chrono::steady_clock;
    struct CachedName {
        std::optional<SiteTarget> target;
        Clock::time_point expires;
        bool refreshing = false;
    };
    struct CachedContent {
        std::shared_ptr<const SiteContent> content;
        std::optional<Clock::time_point> expires;  ///< set while gzip variants are pending
        std::list<int64_t>::iterator age;
        bool refreshing = false;
    };
    struct CachedAccess {
        ProjectAccess access;
        Clock::time_point expires;
        bool refreshing = false;
    };

    std::optional<SiteTarget> target_of(const std::string& name, Clock::time_point now);
    std::shared_ptr<const SiteContent> content_of(const SiteTarget& target, Clock::time_point now);
    ProjectAccess access_of(int64_t project_id, Clock::time_point now);
    std::shared_ptr<const SiteContent> store_content(const SiteTarget& target,
                                                     std::shared_ptr<const SiteContent> content,
                                                     Clock::time_point now);
    void evict_contents();

    Database& database_;
    Identity& identity_;
    Clock::duration ttl_;
    std::size_t max_cached_files_;

    std::mutex mutex_;
    std::unordered_map<std::string, CachedName> names_;
    std::unordered_map<int64_t, CachedContent> contents_;
    std::list<int64_t> content_ages_;  ///< oldest first
    /// File tables being read for the first time, for the requests that wait on them.
    std::unordered_map<int64_t, std::shared_future<std::shared_ptr<const SiteContent>>> loading_;
    std::size_t cached_files_ = 0;
    std::unordered_map<int64_t, CachedAccess> access_;
};

}  // namespace loupe::deployments
