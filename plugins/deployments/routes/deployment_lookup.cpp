#include "routes/deployment_lookup.hpp"

#include <charconv>
#include <map>

#include "loupe/http/http_error.hpp"
#include "site/link_keys.hpp"
#include "store/links.hpp"
#include "store/settings.hpp"

namespace loupe::deployments {

Deployment visible_deployment(soci::session& session, Dialect dialect, const std::string& id_text,
                              const Principal& principal, bool for_update) {
    int64_t id = 0;
    const auto [end, error] = std::from_chars(id_text.data(), id_text.data() + id_text.size(), id);
    if (error != std::errc() || end != id_text.data() + id_text.size() || id <= 0) {
        throw HttpError::not_found("Deployment not found");
    }
    auto deployment = find_deployment(session, dialect, id, for_update);
    if (!deployment) {
        throw HttpError::not_found("Deployment not found");
    }
    if (deployment->project_id != principal.project_id) {
        throw HttpError::unauthorized();
    }
    return *deployment;
}

ProjectAccess project_access(PluginContext& context, soci::session& session, int64_t project_id) {
    const auto project = context.host.identity().find_project(project_id);
    return ProjectAccess{load_settings(session, project_id), !project || project->is_private};
}

std::vector<std::string> site_urls(PluginContext& context, int64_t project_id,
                                   const ProjectAccess& access,
                                   const std::vector<SiteUrlRequest>& sites) {
    std::vector<std::string> urls(sites.size());
    std::vector<std::size_t> private_sites;
    std::vector<int64_t> deployment_ids;
    for (std::size_t i = 0; i < sites.size(); ++i) {
        ResolvedSite site;
        site.target.environment = sites[i].environment;
        site.target.alias_type = sites[i].alias_type;
        site.access = access;
        if (is_public_site(site)) {
            urls[i] = context.urls.root(sites[i].name);
        } else {
            private_sites.push_back(i);
            deployment_ids.push_back(sites[i].deployment_id);
        }
    }
    if (private_sites.empty()) {
        return urls;
    }
    const int64_t now = now_ms();
    const int64_t ttl_ms = context.link_ttl_s * 1000;
    std::map<std::pair<int64_t, std::string>, SiteLink> links;
    {
        auto session = context.host.db().session();
        links = reusable_api_links(*session, deployment_ids, now + ttl_ms / 2);
    }
    std::vector<std::size_t> missing;
    for (const std::size_t i : private_sites) {
        if (!links.contains({sites[i].deployment_id, sites[i].name})) {
            missing.push_back(i);
        }
    }
    const LinkKeys& keys = context.link_keys();
    if (!missing.empty()) {
        context.host.db().transaction([&](soci::session& session) {
            for (const std::size_t i : missing) {
                SiteLink link;
                link.project_id = project_id;
                link.deployment_id = sites[i].deployment_id;
                link.site_name = sites[i].name;
                link.source = "api";
                link.created_at = now;
                link.expires_at = now + ttl_ms;
                insert_link(session, link,
                            [&keys](int64_t id) { return link_key_hash(keys.key_of(id)); });
                links[{link.deployment_id, link.site_name}] = link;
            }
        });
    }
    for (const std::size_t i : private_sites) {
        const SiteLink& link = links.at({sites[i].deployment_id, sites[i].name});
        urls[i] = context.urls.root(keys.key_of(link.id));
    }
    return urls;
}

std::string deployment_url(PluginContext& context, const Deployment& deployment) {
    ProjectAccess access;
    {
        auto session = context.host.db().session();
        access = project_access(context, *session, deployment.project_id);
    }
    return site_urls(context, deployment.project_id, access,
                     {{deployment.id, deployment.slug, deployment.environment, ""}})
        .front();
}

}  // namespace loupe::deployments
