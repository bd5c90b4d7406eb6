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
      caching_(ttl_ms > 0),
      names_({.ttl = std::chrono::milliseconds(ttl_ms),
              .serve_stale_while_refreshing = true,
              .capacity = max_cached_names}),
      contents_({.ttl_of =
                     [ttl_ms](const CachedContent& cached) {
                         return std::chrono::milliseconds(cached.final ? 0 : ttl_ms);
                     },
                 .serve_stale_while_refreshing = true,
                 .capacity = max_cached_files,
                 .weight = [](const CachedContent& cached) { return cached.content->size(); }}),
      access_({.ttl = std::chrono::milliseconds(ttl_ms), .serve_stale_while_refreshing = true}) {}

std::optional<ResolvedSite> SiteCatalog::resolve(const std::string& name) {
    const auto load_target = [&] {
        auto session = database_.session();
        return is_link_key(name) ? find_link_target(*session, link_key_hash(name))
                                 : find_site(*session, name);
    };
    const auto target = caching_ ? names_.get(name, load_target) : load_target();
    if (!target) {
        return std::nullopt;
    }
    const auto load_content = [&] {
        auto session = database_.session();
        return CachedContent{
            std::make_shared<const SiteContent>(site_files(*session, target->deployment_id)),
            target->compressed};
    };
    CachedContent content;
    if (caching_) {
        content = contents_.get(target->deployment_id, load_content);
    } else if (auto kept = contents_.find(target->deployment_id)) {
        content = std::move(*kept);
    } else {
        content = load_content();
        if (content.final) {
            contents_.put(target->deployment_id, content);
        }
    }
    const auto load_access = [&] {
        ProjectAccess loaded;
        {
            auto session = database_.session();
            loaded.settings = load_settings(*session, target->project_id);
        }
        const auto project = identity_.find_project(target->project_id);
        loaded.project_private = !project || project->is_private;
        return loaded;
    };
    const auto access = caching_ ? access_.get(target->project_id, load_access) : load_access();
    return ResolvedSite{*target, content.content, access};
}

}  // namespace loupe::deployments
