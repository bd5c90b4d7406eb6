// Serving deployed sites: GET /d/{site}/{path...} on the API's host, and GET /{path...} on
// {site}.{domain} when plugins.deployments.domain is set. {site} is a deployment's slug
// (immutable: cached for a year) or an alias (moves: revalidated).
#include "loupe/text/strings.hpp"
#include "routes/routes.hpp"
#include "site/file_response.hpp"
#include "site/site_content.hpp"
#include "site_names.hpp"

namespace loupe::deployments {
namespace {

constexpr const char* immutable_cache = "public, max-age=31536000, immutable";
constexpr const char* alias_cache = "public, max-age=60, must-revalidate";

Response plain(int status, const std::string& text) {
    return Response::text(text + "\n", "text/plain; charset=utf-8", status)
        .with_header("Cache-Control", "no-store")
        .with_header("X-Content-Type-Options", "nosniff");
}

Response refused_private() {
    return Response::text(
               "<!doctype html><meta charset=\"utf-8\"><title>Private deployment</title>"
               "<p>This deployment is private. Open it with a signed link: ask a member of the "
               "project for one, or run <code>loupe admin deployments link</code>.</p>\n",
               "text/html; charset=utf-8", 401)
        .with_header("Cache-Control", "no-store");
}

std::string cache_control_for(const SiteTarget& target, bool is_public) {
    std::string value = target.alias_type.empty() ? immutable_cache : alias_cache;
    if (!is_public) {
        value.replace(0, 6, "private");  // shared caches must not keep a private site
    }
    return value;
}

/// The site's name from the Host header: its first label, on a subdomain of `domain`.
std::string site_from_host(const std::string& host, const std::string& domain) {
    const std::size_t dot = host.find('.');
    const std::string label = to_lower(host.substr(0, dot));
    // Only a direct subdomain names a site ("a.b.deploy.example.com" does not).
    const std::string rest = dot == std::string::npos ? "" : host.substr(dot + 1);
    std::string rest_host = to_lower(rest.substr(0, rest.find(':')));
    if (!rest_host.empty() && rest_host.back() == '.') {
        rest_host.pop_back();
    }
    return rest_host == domain ? label : "";
}

Response serve(PluginContext& context, Request& request, const std::string& name,
               const std::string& path) {
    if (!is_site_name(name)) {
        return plain(404, "Not found");
    }
    auto site = context.catalog.resolve(name);
    if (!site || !site->access.settings.enabled) {
        return plain(404, "Not found");
    }
    const auto grant = context.access.check(request, name, *site);
    if (!grant) {
        return refused_private();
    }
    const bool trailing_slash = request.path().ends_with('/');
    const PathResolution resolution =
        resolve_path(*site->content, path, trailing_slash, site->target.spa);
    if (resolution.add_trailing_slash || (path.empty() && !trailing_slash)) {
        Response redirect;
        redirect.status = 308;
        redirect.headers.emplace_back("Location", request.path() + "/");
        redirect.headers.emplace_back("Cache-Control", "no-store");
        return redirect;
    }
    if (resolution.file == nullptr) {
        return plain(404, "Not found");
    }
    const bool is_public = is_public_site(*site);
    Response response =
        file_response(request, context.host.blobs(), *resolution.file,
                      cache_control_for(site->target, is_public), resolution.status);
    if (grant->set_cookie) {
        response.with_header("Set-Cookie", *grant->set_cookie);
        // The link's token is in this page's URL: keep it out of Referer headers to others.
        response.with_header("Referrer-Policy", "same-origin");
    }
    return response;
}

}  // namespace

void add_site_routes(PluginContext& context) {
    context.host.routes().add(
        Method::get, "/d/{site}/{path...}", AuthRequirement::none, [&context](Request& request) {
            return serve(context, request, request.param("site"), request.param("path"));
        });
    const std::string domain = context.urls.domain();
    if (domain.empty()) {
        return;
    }
    RouteOptions on_sites;
    on_sites.host_suffix = domain;
    context.host.routes().add(
        Method::get, "/{path...}", AuthRequirement::none,
        [&context, domain](Request& request) {
            const std::string name = site_from_host(request.header("Host").value_or(""), domain);
            return serve(context, request, name, request.param("path"));
        },
        on_sites);
}

}  // namespace loupe::deployments
