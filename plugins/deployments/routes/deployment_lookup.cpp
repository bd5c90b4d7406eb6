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

std::string deployment_url(PluginContext& context, soci::session& session,
                           const Deployment& deployment) {
    const ProjectSettings settings = load_settings(session, deployment.project_id);
    const auto project = context.host.identity().find_project(deployment.project_id);
    ResolvedSite site;
    site.target.project_id = deployment.project_id;
    site.target.environment = deployment.environment;
    site.access = ProjectAccess{settings, !project || project->is_private};
    return context.site_url(deployment.slug, is_public_site(site));
}

}  // namespace loupe::deployments
