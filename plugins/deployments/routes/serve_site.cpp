// Serving deployed sites, never on the review page's origin: GET /{path...} on {site}.{domain}
// when plugins.deployments.domain is set, else GET /d/{site}/{path...} on the sites listener
// (a port of its own that reads no cookie or token). On the review page's host, /d/{site}/...
// answers a redirect there. {site} is a deployment's slug (immutable: cached for a year), an
// alias (moves: revalidated) or a private link's key (revalidated, so a revoked link stops).
#include <algorithm>

#include "loupe/json.hpp"
#include "loupe/text/strings.hpp"
#include "routes/routes.hpp"
#include "site/file_response.hpp"
#include "site/link_keys.hpp"
#include "site/site_content.hpp"
#include "site/site_headers.hpp"
#include "site_names.hpp"

namespace loupe::deployments {
namespace {

constexpr const char* immutable_cache = "public, max-age=31536000, immutable";
constexpr const char* alias_cache = "public, max-age=60, must-revalidate";
constexpr const char* link_cache = "private, no-cache";

bool has_header(const Response& response, const std::string& name) {
    return std::any_of(response.headers.begin(), response.headers.end(), [&](const auto& header) {
        return equals_ignoring_case(header.first, name);
    });
}

/// The site headers (site/site_headers.hpp) the answer lacks, and for a private link's answer
/// a request to search engines to leave it out.
Response with_site_headers(Response response, bool via_link) {
    for (auto& [name, value] : site_response_headers()) {
        if (!has_header(response, name)) {
            response.with_header(std::move(name), std::move(value));
        }
    }
    if (via_link) {
        response.with_header("X-Robots-Tag", "noindex, nofollow");
    }
    return response;
}

Response plain(int status, const std::string& text) {
    return Response::text(text + "\n", "text/plain; charset=utf-8", status)
        .with_header("Cache-Control", "no-store");
}

Response refusal_page(const std::string& title, const std::string& text) {
    return Response::text("<!doctype html><meta charset=\"utf-8\"><title>" + title +
                              "</title><style>body{font:16px/1.5 system-ui,sans-serif;color:#222;"
                              "max-width:40em;margin:4em auto;padding:0 1em}</style><h1>" +
                              title + "</h1><p>" + text + "</p>\n",
                          "text/html; charset=utf-8", 401)
        .with_header("Cache-Control", "no-store");
}

Response refused_private() {
    return refusal_page("Private deployment",
                        "This deployment is private. Open it with a link from the project's "
                        "Deployments tab, or ask a member of the project for one "
                        "(<code>loupe admin deployments link</code>).");
}

Response refused_link() {
    return refusal_page("Link expired",
                        "This link to a private deployment has expired or was revoked. Open the "
                        "deployment again from the project's Deployments tab, or ask a member "
                        "of the project for a new link.");
}

std::string cache_control_for(const SiteTarget& target) {
    if (target.via_link) {
        return link_cache;
    }
    return target.alias_type.empty() ? immutable_cache : alias_cache;
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
    const bool link = is_link_key(name);
    auto site = context.catalog.resolve(name);
    if (!site || !site->access.settings.enabled) {
        return link ? refused_link() : plain(404, "Not found");
    }
    if (!may_view(*site, now_ms())) {
        return link ? refused_link() : refused_private();
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
    return file_response(request, context.host.blobs(), *resolution.file,
                         cache_control_for(site->target), resolution.status);
}

Response serve_securely(PluginContext& context, Request& request, const std::string& name,
                        const std::string& path) {
    return with_site_headers(serve(context, request, name, path), is_link_key(name));
}

/// The part of a raw request path after "/d/{site}" ("" or "/..."), still percent-encoded.
std::string rest_after_site(const std::string& raw_path) {
    const std::size_t site_start = raw_path.find('/', 1);  // after "/d"
    if (site_start == std::string::npos) {
        return "";
    }
    const std::size_t site_end = raw_path.find('/', site_start + 1);
    return site_end == std::string::npos ? "" : raw_path.substr(site_end);
}

RouteAccess site_access() {
    return RouteAccess::public_route(
        "a deployed site: a public one for anyone, a private one only with its signed link");
}

}  // namespace

void add_site_routes(PluginContext& context) {
    // The review page's host serves no site: an old or hand-written /d/ link goes to the site's
    // own origin, path and query kept.
    context.host.routes().add(
        Method::get, "/d/{site}/{path...}", AuthRequirement::none,
        RouteAccess::public_route("redirects to the site's own origin; reads and serves nothing"),
        [&context](Request& request) {
            const std::string& name = request.param("site");
            if (!is_site_name(name)) {
                return plain(404, "Not found");
            }
            std::string location = context.urls.root(name);  // ends with '/'
            if (const std::string rest = rest_after_site(request.path()); !rest.empty()) {
                location.pop_back();
                location += rest;
            }
            if (const std::string query = request.query_string(); !query.empty()) {
                location += "?" + query;
            }
            Response redirect;
            redirect.status = 308;
            redirect.headers.emplace_back("Location", location);
            redirect.headers.emplace_back("Cache-Control", "no-store");
            return redirect;
        });

    if (context.sites_listener != nullptr) {
        context.sites_listener->routes().add(
            Method::get, "/d/{site}/{path...}", AuthRequirement::none, site_access(),
            [&context](Request& request) {
                return serve_securely(context, request, request.param("site"),
                                      request.param("path"));
            });
        return;
    }
    const std::string domain = context.urls.domain();
    RouteOptions on_sites;
    on_sites.host_suffix = domain;
    context.host.routes().add(
        Method::get, "/{path...}", AuthRequirement::none, site_access(),
        [&context, domain](Request& request) {
            const std::string name = site_from_host(request.header("Host").value_or(""), domain);
            return serve_securely(context, request, name, request.param("path"));
        },
        on_sites);
}

}  // namespace loupe::deployments
