// The review page: one index.html for every page path (the front end routes in the browser)
// and the content-hashed assets the build wrote next to the plugin. The HTML holds no data:
// everything is read through the API, so a visitor without a session only ever sees the
// sign-in page.
#include <filesystem>

#include "loupe/http/http_error.hpp"
#include "routes/routes.hpp"

namespace loupe::web {
namespace {

namespace fs = std::filesystem;

constexpr const char* content_security_policy =
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src * data: blob:; media-src *; connect-src 'self'; font-src 'self'; object-src 'none'; "
    "base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

Response with_page_headers(Response response) {
    return response.with_header("Content-Security-Policy", content_security_policy)
        .with_header("X-Content-Type-Options", "nosniff")
        .with_header("Referrer-Policy", "same-origin")
        .with_header("X-Frame-Options", "DENY");
}

/// The page paths: every URL the API hands out (a build's `url`) and the ones the page links.
const char* const page_patterns[] = {
    "/",
    "/_loupe/login",
    "/_loupe/oauth/authorize",
    "/_loupe/join/{token}",
    "/_loupe/settings",
    "/{account}",
    "/{account}/{project}",
    "/{account}/{project}/builds",
    "/{account}/{project}/deployments",
    "/{account}/{project}/activity",
    "/{account}/{project}/tests",
    "/{account}/{project}/tests/{testId}",
    "/{account}/{project}/media",
    "/{account}/{project}/media/{mediaId}",
    "/{account}/{project}/settings",
    "/{account}/{project}/builds/{buildNumber}",
};

bool is_asset_name(const std::string& name) {
    if (name.empty() || name.size() > 200 || name.front() == '.') {
        return false;
    }
    for (char c : name) {
        const bool allowed = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                             (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.';
        if (!allowed) {
            return false;
        }
    }
    return true;
}

std::string content_type_of(const std::string& name) {
    const std::string extension = fs::path(name).extension().string();
    if (extension == ".js") {
        return "text/javascript; charset=utf-8";
    }
    if (extension == ".css") {
        return "text/css; charset=utf-8";
    }
    if (extension == ".svg") {
        return "image/svg+xml";
    }
    if (extension == ".png") {
        return "image/png";
    }
    if (extension == ".woff2") {
        return "font/woff2";
    }
    if (extension == ".json" || extension == ".map") {
        return "application/json";
    }
    return "application/octet-stream";
}

bool accepts_gzip(const Request& request) {
    const auto accepted = request.header("Accept-Encoding");
    return accepted && accepted->find("gzip") != std::string::npos;
}

}  // namespace

void add_page_routes(Host& host, const WebSettings& settings) {
    const fs::path index = fs::path(settings.assets_dir) / "index.html";
    RouteOptions page;
    page.page = true;  // a browser's navigation only: API clients get the JSON 404
    for (const char* pattern : page_patterns) {
        host.routes().add(
            Method::get, pattern, AuthRequirement::none,
            RouteAccess::public_route("the page's shell: the same HTML for everyone; it reads "
                                      "every datum through the guarded API"),
            [index](Request&) {
                if (!fs::is_regular_file(index)) {
                    return Response::text(
                        "The review page was not built: build Loupe with node and npm available "
                        "(scripts/build.sh), or point plugins.web.assets_dir at a built front "
                        "end.\n",
                        "text/plain; charset=utf-8", 503);
                }
                return with_page_headers(Response::file(index.string(), "text/html; charset=utf-8")
                                             .with_header("Cache-Control", "no-cache")
                                             .with_header("Vary", "Accept"));
            },
            page);
    }

    const fs::path assets = fs::path(settings.assets_dir) / "assets";
    host.routes().add(Method::get, "/_loupe/assets/{file}", AuthRequirement::none,
                      RouteAccess::public_route("the page's scripts and styles, the same for "
                                                "everyone"),
                      [assets](Request& request) {
                          const std::string& name = request.param("file");
                          const fs::path path = assets / name;
                          if (!is_asset_name(name) || !fs::is_regular_file(path)) {
                              throw HttpError(404, "Not Found");
                          }
                          // Names carry a content hash: a new build writes new names.
                          const char* cache = "public, max-age=31536000, immutable";
                          fs::path compressed = path;
                          compressed += ".gz";
                          if (accepts_gzip(request) && fs::is_regular_file(compressed)) {
                              return Response::file(compressed.string(), content_type_of(name))
                                  .with_header("Content-Encoding", "gzip")
                                  .with_header("Vary", "Accept-Encoding")
                                  .with_header("Cache-Control", cache);
                          }
                          return Response::file(path.string(), content_type_of(name))
                              .with_header("Vary", "Accept-Encoding")
                              .with_header("Cache-Control", cache);
                      });
}

}  // namespace loupe::web
