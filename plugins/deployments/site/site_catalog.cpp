#include "site/site_catalog.hpp"

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
        if (it != names_.end() && it->second.expires > now) {
            return it->second.target;
        }
    }
    std::optional<SiteTarget> target;
    {
        auto session = database_.session();
        target = find_site(*session, name);
    }
    std::lock_guard lock(mutex_);
    if (names_.size() >= max_cached_names) {
        names_.clear();
    }
    names_[name] = CachedName{target, now + ttl_};
    return target;
}

std::shared_ptr<const SiteContent> SiteCatalog::content_of(const SiteTarget& target,
                                                           Clock::time_point now) {
    {
        std::lock_guard lock(mutex_);
        const auto it = contents_.find(target.deployment_id);
        if (it != contents_.end() && (!it->second.expires || *it->second.expires > now)) {
            return it->second.content;
        }
    }
    std::shared_ptr<const SiteContent> content;
    {
        auto session = database_.session();
        content = std::make_shared<const SiteContent>(site_files(*session, target.deployment_id));
    }
    std::lock_guard lock(mutex_);
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
        CachedContent{content, expires, std::prev(content_ages_.end())};
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
        if (it != access_.end() && it->second.expires > now) {
            return it->second.access;
        }
    }
    ProjectAccess access;
    {
        auto session = database_.session();
        access.settings = load_settings(*session, project_id);
    }
    const auto project = identity_.find_project(project_id);
    access.project_private = !project || project->is_private;
    std::lock_guard lock(mutex_);
    access_[project_id] = CachedAccess{access, now + ttl_};
    return access;
}

}  // namespace loupe::deployments
