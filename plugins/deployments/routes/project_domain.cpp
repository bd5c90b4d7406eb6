// A project's production domain: GET and PUT /projects/{owner}/{project}/domain (the CLI's
// `argos project domain get|set`). With plugins.deployments.domain set, the project's newest
// production deployment is served at `{production alias}.{domain}`; an administrator may give it
// a name of the project's own, `{name}.{domain}`, which then follows every production
// deployment beside the production alias. A name is a site name (a DNS label) holding a dash
// but never "--" (the aliases' separator), and no other project's site, alias or name. Without
// a domain, sites are served by path and no project has a domain: GET answers null, PUT 400.
#include <soci/soci.h>

#include "loupe/http/http_error.hpp"
#include "loupe/http/json_reader.hpp"
#include "loupe/text/strings.hpp"
#include "routes/routes.hpp"
#include "site_names.hpp"
#include "store/aliases.hpp"
#include "store/deployment.hpp"
#include "store/settings.hpp"

namespace loupe::deployments {
namespace {

/// The production site name of `project`: its own, else its production alias.
std::string production_site(const Project& project, const ProjectSettings& settings) {
    return settings.production_name.value_or(production_alias(project.name, project.account_slug));
}

Json domain_json(const PluginContext& context, const Project& project,
                 const ProjectSettings& settings) {
    if (!settings.enabled || context.urls.domain().empty()) {
        return Json{{"domain", nullptr}};
    }
    return Json{{"domain", production_site(project, settings) + "." + context.urls.domain()}};
}

/// The body's `domain`, lower-cased, without surrounding spaces or the root's trailing dot.
std::string read_domain(Request& request) {
    Validation validation;
    JsonReader body(object_body(request), validation);
    std::string domain = body.string("domain", true, 1).value_or("");
    validation.throw_if_any();
    domain = to_lower(trim(domain));
    if (domain.ends_with('.')) {
        domain.pop_back();
    }
    return domain;
}

/// The name `domain` gives (the project's production alias, or a name of its own), or 400
/// saying why it gives none.
std::string name_of_domain(const std::string& domain, const std::string& sites_domain,
                           const std::string& alias) {
    const std::string suffix = "." + sites_domain;
    if (domain.size() <= suffix.size() || !domain.ends_with(suffix)) {
        throw HttpError::bad_request("The domain must be a name under " + sites_domain + ".");
    }
    std::string name = domain.substr(0, domain.size() - suffix.size());
    if (name == alias) {
        return name;
    }
    if (!is_site_name(name) || name.find('-') == std::string::npos ||
        name.find("--") != std::string::npos) {
        throw HttpError::bad_request(
            "Invalid name \"" + name +
            "\": use 1 to 63 lower-case letters, digits and single dashes, with at least one "
            "dash, neither first nor last.");
    }
    return name;
}

}  // namespace

void add_project_domain_routes(PluginContext& context) {
    Host& host = context.host;
    host.routes().add(Method::get, "/projects/{owner}/{project}/domain",
                      AuthRequirement::project_or_personal_token,
                      RouteAccess::project(ProjectPermission::view), [&](Request& request) {
                          const Project& project = request.access().require_project();
                          auto session = host.db().session();
                          return Response::json(
                              domain_json(context, project, load_settings(*session, project.id)));
                      });

    host.routes().add_validated(
        Method::put, "/projects/{owner}/{project}/domain", AuthRequirement::personal_token,
        RouteAccess::project(ProjectPermission::admin,
                             "You are not an administrator of this project."),
        read_domain, [&](Request& request, const std::string& domain) {
            const Project& project = request.access().require_project();
            if (context.urls.domain().empty()) {
                throw HttpError::bad_request(
                    "This server serves sites by path (/d/{name}/): an operator sets "
                    "plugins.deployments.domain to give projects a domain.");
            }
            const std::string alias = production_alias(project.name, project.account_slug);
            const std::string name = name_of_domain(domain, context.urls.domain(), alias);
            const ProjectSettings saved = host.db().transaction([&](soci::session& session) {
                ProjectSettings settings = load_settings(session, project.id);
                if (!settings.enabled) {
                    throw HttpError::bad_request("Deployments are off for this project.");
                }
                const auto owner = alias_owner(session, name);
                const bool own = owner && *owner == project.id;
                if (name != alias &&
                    ((owner && !own) || (!owner && site_name_taken(session, name)) ||
                     production_name_owner(session, name, project.id))) {
                    throw HttpError(409, "The domain " + domain + " is already taken.");
                }
                const auto previous = settings.production_name;
                settings.production_name =
                    name == alias ? std::nullopt : std::optional<std::string>(name);
                if (previous && previous != settings.production_name) {
                    delete_alias(session, *previous, project.id);
                }
                save_settings(session, project.id, settings);
                // The site answers at once when the project already has a production deployment.
                if (const auto current = alias_target(session, alias, project.id);
                    current && settings.production_name) {
                    upsert_alias(session, *settings.production_name, "production", project.id,
                                 *current);
                }
                return settings;
            });
            return Response::json(domain_json(context, project, saved));
        });
}

}  // namespace loupe::deployments
