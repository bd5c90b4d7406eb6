#include "routes/deployment_lookup.hpp"

#include <charconv>

#include "loupe/http/http_error.hpp"
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

std::string site_url_for(PluginContext& context, const ProjectAccess& access,
                         const std::string& name, const std::string& environment,
                         const std::string& alias_type) {
    ResolvedSite site;
    site.target.environment = environment;
    site.target.alias_type = alias_type;
    site.access = access;
    return context.site_url(name, is_public_site(site));
}

std::string deployment_url(PluginContext& context, soci::session& session,
                           const Deployment& deployment) {
    return site_url_for(context, project_access(context, session, deployment.project_id),
                        deployment.slug, deployment.environment);
}

}  // namespace loupe::deployments
