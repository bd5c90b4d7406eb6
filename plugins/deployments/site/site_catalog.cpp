#include "site/site_catalog.hpp"

#include "site/link_keys.hpp"
#include "store/links.hpp"

namespace loupe::deployments {
namespace {

/// Names looked up and not found are remembered too (a scan of random names must not reach
/// the database each time), but never more than this many.
constexpr std::size_t max_cached_names = 100000;

}  // namespace

SiteCatalog::SiteCatalog(Database& database, Identity& identity, int64_t ttl_ms,
                         std::size_t max_cached_files)
    : database_(database),
      identity_(identity),
      ttl_(std::chrono::milliseconds(ttl_ms)),
      max_cached_files_(max_cached_files) {}

std::optional<ResolvedSite> SiteCatalog::resolve(const std::string& name) {
    const auto now = Clock::now();
    auto target = target_of(name, now);
    if (!target) {
        return std::nullopt;
    }
    ResolvedSite site{*target, content_of(*target, now), access_of(target->project_id, now)};
    return site;
}

std::optional<SiteTarget> SiteCatalog::target_of(const std::string& name, Clock::time_point now) {
    {
        std::lock_guard lock(mutex_);
        const auto it = names_.find(name);
        if (it != names_.end() && (it->second.expires > now || it->second.refreshing)) {
            return it->second.target;
        }
        if (it != names_.end()) {
            it->second.refreshing = true;  // this request refreshes it; others use it meanwhile
        }
    }
    std::optional<SiteTarget> target;
    try {
        auto session = database_.session();
        target = is_link_key(name) ? find_link_target(*session, link_key_hash(name))
                                   : find_site(*session, name);
    } catch (...) {
        std::lock_guard lock(mutex_);
        names_.erase(name);
        throw;
    }
    std::lock_guard lock(mutex_);
    if (names_.size() >= max_cached_names) {
        names_.clear();
    }
    names_[name] = CachedName{target, now + ttl_, false};
    return target;
}

std::shared_ptr<const SiteContent> SiteCatalog::content_of(const SiteTarget& target,
                                                           Clock::time_point now) {
    std::promise<std::shared_ptr<const SiteContent>> promise;
    {
        std::unique_lock lock(mutex_);
        const auto it = contents_.find(target.deployment_id);
        if (it != contents_.end()) {
            CachedContent& cached = it->second;
            if (!cached.expires || *cached.expires > now || cached.refreshing) {
                return cached.content;
            }
            cached.refreshing = true;
        } else if (const auto loading = loading_.find(target.deployment_id);
                   loading != loading_.end()) {
            auto pending = loading->second;
            lock.unlock();
            return pending.get();
        } else {
            loading_.emplace(target.deployment_id, promise.get_future().share());
        }
    }
    try {
        std::shared_ptr<const SiteContent> content;
        {
            auto session = database_.session();
            content =
                std::make_shared<const SiteContent>(site_files(*session, target.deployment_id));
        }
        std::lock_guard lock(mutex_);
        promise.set_value(content);
        loading_.erase(target.deployment_id);
        return store_content(target, std::move(content), now);
    } catch (...) {
        std::lock_guard lock(mutex_);
        if (loading_.erase(target.deployment_id) > 0) {
            promise.set_exception(std::current_exception());
        }
        if (const auto it = contents_.find(target.deployment_id); it != contents_.end()) {
            it->second.refreshing = false;
        }
        throw;
    }
}

std::shared_ptr<const SiteContent> SiteCatalog::store_content(
    const SiteTarget& target, std::shared_ptr<const SiteContent> content, Clock::time_point now) {
    if (const auto it = contents_.find(target.deployment_id); it != contents_.end()) {
        cached_files_ -= it->second.content->size();
        content_ages_.erase(it->second.age);
        contents_.erase(it);
    }
    content_ages_.push_back(target.deployment_id);
    std::optional<Clock::time_point> expires;
    if (!target.compressed) {
        expires = now + ttl_;
    }
    contents_[target.deployment_id] =
        CachedContent{content, expires, std::prev(content_ages_.end()), false};
    cached_files_ += content->size();
    evict_contents();
    return content;
}

void SiteCatalog::evict_contents() {
    // Keep at least the newest entry, however large.
    while (cached_files_ > max_cached_files_ && content_ages_.size() > 1) {
        const auto it = contents_.find(content_ages_.front());
        cached_files_ -= it->second.content->size();
        contents_.erase(it);
        content_ages_.pop_front();
    }
}

ProjectAccess SiteCatalog::access_of(int64_t project_id, Clock::time_point now) {
    {
        std::lock_guard lock(mutex_);
        const auto it = access_.find(project_id);
        if (it != access_.end() && (it->second.expires > now || it->second.refreshing)) {
            return it->second.access;
        }
        if (it != access_.end()) {
            it->second.refreshing = true;
        }
    }
    ProjectAccess access;
    try {
        {
            auto session = database_.session();
            access.settings = load_settings(*session, project_id);
        }
        const auto project = identity_.find_project(project_id);
        access.project_private = !project || project->is_private;
    } catch (...) {
        std::lock_guard lock(mutex_);
        access_.erase(project_id);
        throw;
    }
    std::lock_guard lock(mutex_);
    access_[project_id] = CachedAccess{access, now + ttl_, false};
    return access;
}

}  // namespace loupe::deployments
