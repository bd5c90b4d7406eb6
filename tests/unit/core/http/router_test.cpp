#include "http/router.hpp"

#include <doctest/doctest.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace loupe {
namespace {

RegisteredRoute route(Method method, std::string pattern, std::string plugin = "alpha",
                      std::string host_suffix = "") {
    Route r;
    r.method = method;
    r.pattern = std::move(pattern);
    r.options.host_suffix = std::move(host_suffix);
    r.prepare = [](Request&) { return Handler([](Request&) { return Response::no_content(); }); };
    return {std::move(r), std::move(plugin)};
}

std::string refusal(const std::vector<RegisteredRoute>& routes) {
    try {
        Router router(routes);
    } catch (const std::invalid_argument& error) {
        return error.what();
    }
    return "";
}

}  // namespace

TEST_CASE("router: a literal segment wins over a capture at the same position") {
    // Registered capture first, so the order of registration cannot be what decides.
    const std::vector<RegisteredRoute> routes = {
        route(Method::post, "/builds/{buildId}"),
        route(Method::post, "/builds/finalize"),
    };
    const Router router(routes);

    const RouteMatch literal = router.match(Method::post, "/builds/finalize");
    REQUIRE(literal.outcome == RouteMatch::Outcome::found);
    CHECK(literal.route->route.pattern == "/builds/finalize");
    CHECK(literal.params.empty());

    const RouteMatch capture = router.match(Method::post, "/builds/12");
    REQUIRE(capture.outcome == RouteMatch::Outcome::found);
    CHECK(capture.route->route.pattern == "/builds/{buildId}");
    CHECK(capture.params.at("buildId") == "12");
}

TEST_CASE("router: specificity is decided at the first position that differs") {
    const std::vector<RegisteredRoute> routes = {
        route(Method::get, "/projects/{owner}/builds"),
        route(Method::get, "/projects/mine/{project}"),
    };
    const Router router(routes);
    const RouteMatch match = router.match(Method::get, "/projects/mine/builds");
    REQUIRE(match.outcome == RouteMatch::Outcome::found);
    CHECK(match.route->route.pattern == "/projects/mine/{project}");
    CHECK(match.params.at("project") == "builds");
}

TEST_CASE("router: captures are percent-decoded after splitting on '/'") {
    const std::vector<RegisteredRoute> routes = {
        route(Method::get, "/projects/{owner}/{project}"),
    };
    const Router router(routes);
    const RouteMatch match = router.match(Method::get, "/projects/my%20team/web%2Fapp");
    REQUIRE(match.outcome == RouteMatch::Outcome::found);
    CHECK(match.params.at("owner") == "my team");
    CHECK(match.params.at("project") == "web/app");

    // A malformed escape is kept as written rather than refused.
    const RouteMatch odd = router.match(Method::get, "/projects/a%zz/b%");
    REQUIRE(odd.outcome == RouteMatch::Outcome::found);
    CHECK(odd.params.at("owner") == "a%zz");
    CHECK(odd.params.at("project") == "b%");
}

TEST_CASE("router: a trailing slash is tolerated, empty segments are not") {
    const std::vector<RegisteredRoute> routes = {
        route(Method::get, "/builds/{buildId}"),
        route(Method::get, "/"),
    };
    const Router router(routes);
    CHECK(router.match(Method::get, "/builds/7/").outcome == RouteMatch::Outcome::found);
    CHECK(router.match(Method::get, "/builds//").outcome == RouteMatch::Outcome::not_found);
    CHECK(router.match(Method::get, "/builds//7").outcome == RouteMatch::Outcome::not_found);
    CHECK(router.match(Method::get, "/builds").outcome == RouteMatch::Outcome::not_found);
    CHECK(router.match(Method::get, "/builds/7/x").outcome == RouteMatch::Outcome::not_found);
    CHECK(router.match(Method::get, "builds/7").outcome == RouteMatch::Outcome::not_found);
    CHECK(router.match(Method::get, "/").outcome == RouteMatch::Outcome::found);
    CHECK(router.match(Method::get, "").outcome == RouteMatch::Outcome::not_found);
}

TEST_CASE("router: 404 for an unknown path, 405 with the allowed methods for a known one") {
    const std::vector<RegisteredRoute> routes = {
        route(Method::get, "/builds/{buildId}"),
        route(Method::put, "/builds/{buildId}"),
        route(Method::del, "/builds/{buildId}"),
        route(Method::post, "/builds"),
    };
    const Router router(routes);

    const RouteMatch missing = router.match(Method::get, "/nothing/here");
    CHECK(missing.outcome == RouteMatch::Outcome::not_found);
    CHECK(missing.allowed.empty());

    const RouteMatch wrong = router.match(Method::post, "/builds/3");
    CHECK(wrong.outcome == RouteMatch::Outcome::method_not_allowed);
    CHECK(wrong.route == nullptr);
    CHECK(wrong.allowed ==
          std::vector<Method>{Method::get, Method::head, Method::put, Method::del});

    const RouteMatch post_only = router.match(Method::get, "/builds");
    CHECK(post_only.outcome == RouteMatch::Outcome::method_not_allowed);
    CHECK(post_only.allowed == std::vector<Method>{Method::post});
}

TEST_CASE("router: HEAD falls back to the GET route, an explicit HEAD route wins") {
    const std::vector<RegisteredRoute> routes = {
        route(Method::get, "/files/{name}", "files"),
        route(Method::get, "/status", "core"),
        route(Method::head, "/status", "probe"),
    };
    const Router router(routes);
    const RouteMatch file = router.match(Method::head, "/files/a.png");
    REQUIRE(file.outcome == RouteMatch::Outcome::found);
    CHECK(file.route->plugin == "files");
    CHECK(file.params.at("name") == "a.png");

    const RouteMatch status = router.match(Method::head, "/status");
    REQUIRE(status.outcome == RouteMatch::Outcome::found);
    CHECK(status.route->plugin == "probe");
}

TEST_CASE("router: the same method and shape twice is refused, naming both plugins") {
    const std::string message = refusal({
        route(Method::put, "/builds/{buildId}", "builds"),
        route(Method::put, "/builds/{id}", "reviews"),
    });
    CHECK(message.find("duplicate route PUT /builds/{id}") != std::string::npos);
    CHECK(message.find("'builds'") != std::string::npos);
    CHECK(message.find("'reviews'") != std::string::npos);

    // Same shape but another method, or a literal instead of the capture: both fine.
    CHECK(refusal({route(Method::put, "/builds/{buildId}"), route(Method::get, "/builds/{buildId}"),
                   route(Method::put, "/builds/finalize")})
              .empty());
    // A trailing slash does not make a different route.
    CHECK_FALSE(
        refusal({route(Method::get, "/projects", "a"), route(Method::get, "/projects/", "b")})
            .empty());
}

TEST_CASE("router: malformed patterns are refused with the plugin's name") {
    for (const char* pattern : {"builds", "/builds//x", "/builds/{}", "/builds/{id",
                                "/builds/x{id}", "/builds/{a-b}", "/a/{id}/b/{id}"}) {
        CAPTURE(pattern);
        const std::string message = refusal({route(Method::get, pattern, "gamma")});
        CHECK(message.find("malformed") != std::string::npos);
        CHECK(message.find("'gamma'") != std::string::npos);
    }
}

TEST_CASE("router: a {name...} capture takes the rest of the path, segment by segment decoded") {
    const std::vector<RegisteredRoute> routes = {
        route(Method::get, "/d/{slug}/{path...}", "sites"),
    };
    const Router router(routes);

    const RouteMatch nested = router.match(Method::get, "/d/web-1/static/js/main%20x.js");
    REQUIRE(nested.outcome == RouteMatch::Outcome::found);
    CHECK(nested.params.at("slug") == "web-1");
    CHECK(nested.params.at("path") == "static/js/main x.js");

    // Zero remaining segments (with or without the trailing slash) give an empty rest.
    for (const char* path : {"/d/web-1", "/d/web-1/"}) {
        CAPTURE(path);
        const RouteMatch root = router.match(Method::get, path);
        REQUIRE(root.outcome == RouteMatch::Outcome::found);
        CHECK(root.params.at("path").empty());
    }

    // An encoded slash or dot stays inside its segment: the rest is never re-split or resolved.
    const RouteMatch encoded = router.match(Method::get, "/d/web-1/..%2f..%2fetc/%2e%2e/passwd");
    REQUIRE(encoded.outcome == RouteMatch::Outcome::found);
    CHECK(encoded.params.at("path") == "../../etc/../passwd");
    const RouteMatch twice = router.match(Method::get, "/d/web-1/%252e%252e/x");
    REQUIRE(twice.outcome == RouteMatch::Outcome::found);
    CHECK(twice.params.at("path") == "%2e%2e/x");

    // Empty segments and a missing fixed segment still do not match.
    CHECK(router.match(Method::get, "/d/web-1//x").outcome == RouteMatch::Outcome::not_found);
    CHECK(router.match(Method::get, "/d").outcome == RouteMatch::Outcome::not_found);
    CHECK(router.match(Method::head, "/d/web-1/a").outcome == RouteMatch::Outcome::found);
}

TEST_CASE("router: fixed-length routes win over a rest capture, a later rest over an earlier") {
    const std::vector<RegisteredRoute> routes = {
        route(Method::get, "/{all...}", "catch-all"),
        route(Method::get, "/d/{slug}/{path...}", "sites"),
        route(Method::get, "/d/{slug}", "site-info"),
        route(Method::get, "/d/{slug}/meta.json", "meta"),
    };
    const Router router(routes);
    const auto plugin_for = [&](const char* path) {
        const RouteMatch match = router.match(Method::get, path);
        REQUIRE(match.outcome == RouteMatch::Outcome::found);
        return match.route->plugin;
    };
    CHECK(plugin_for("/d/a") == "site-info");
    CHECK(plugin_for("/d/a/meta.json") == "meta");
    CHECK(plugin_for("/d/a/b/meta.json") == "sites");
    CHECK(plugin_for("/d/a/index.html") == "sites");
    CHECK(plugin_for("/d") == "catch-all");
    CHECK(plugin_for("/") == "catch-all");
    CHECK(router.match(Method::get, "/x/y").params.at("all") == "x/y");
}

TEST_CASE("router: a rest capture anywhere but last, or twice the same shape, is refused") {
    const std::string middle = refusal({route(Method::get, "/d/{path...}/x", "sites")});
    CHECK(middle.find("must be the last segment") != std::string::npos);
    CHECK(refusal({route(Method::get, "/d/{...}")}).find("malformed") != std::string::npos);
    const std::string twice =
        refusal({route(Method::get, "/d/{path...}", "a"), route(Method::get, "/d/{rest...}", "b")});
    CHECK(twice.find("duplicate route") != std::string::npos);
    // A rest capture and a single capture at the same place are different shapes.
    CHECK(refusal({route(Method::get, "/d/{path...}"), route(Method::get, "/d/{id}")}).empty());
}

TEST_CASE("router: virtual-host routes answer only subdomains of their suffix, and alone") {
    const std::vector<RegisteredRoute> routes = {
        route(Method::get, "/{path...}", "sites", "Deploy.Example.com"),
        route(Method::get, "/project", "auth"),
    };
    const Router router(routes);
    CHECK(router.virtual_host_of("web-1.deploy.example.com") == "deploy.example.com");
    CHECK(router.virtual_host_of("WEB-1.Deploy.Example.COM:8443") == "deploy.example.com");
    CHECK(router.virtual_host_of("web-1.deploy.example.com.") == "deploy.example.com");
    CHECK(router.virtual_host_of("deploy.example.com").empty());
    CHECK(router.virtual_host_of("evildeploy.example.com").empty());
    CHECK(router.virtual_host_of("127.0.0.1:8080").empty());
    CHECK(router.virtual_host_of("").empty());

    // On the site's host the API route is not reachable; on the API host the site is not.
    const RouteMatch site = router.match(Method::get, "/project", "deploy.example.com");
    REQUIRE(site.outcome == RouteMatch::Outcome::found);
    CHECK(site.route->plugin == "sites");
    CHECK(site.params.at("path") == "project");
    const RouteMatch api = router.match(Method::get, "/project");
    REQUIRE(api.outcome == RouteMatch::Outcome::found);
    CHECK(api.route->plugin == "auth");
    CHECK(router.match(Method::get, "/other").outcome == RouteMatch::Outcome::not_found);
}

TEST_CASE("router: a route without a prepare step is refused") {
    RegisteredRoute empty = route(Method::get, "/x", "delta");
    empty.route.prepare = nullptr;
    const std::string message = refusal({empty});
    CHECK(message.find("has no handler") != std::string::npos);
    CHECK(message.find("'delta'") != std::string::npos);
}

TEST_CASE("router: page routes take part only when asked, and never hide an API route") {
    std::vector<RegisteredRoute> routes = {
        route(Method::get, "/{account}/{project}"),
        route(Method::get, "/projects/{owner}"),
    };
    routes[0].route.options.page = true;
    const Router router(routes);
    CHECK(router.match(Method::get, "/acme/web", {}, true).outcome == RouteMatch::Outcome::found);
    // Without pages the page path is unknown (404), not a 405 of the page's GET.
    CHECK(router.match(Method::get, "/acme/web", {}, false).outcome ==
          RouteMatch::Outcome::not_found);
    CHECK(router.match(Method::post, "/acme/web", {}, false).outcome ==
          RouteMatch::Outcome::not_found);
    const RouteMatch api = router.match(Method::get, "/projects/acme", {}, false);
    REQUIRE(api.outcome == RouteMatch::Outcome::found);
    CHECK(api.route->route.pattern == "/projects/{owner}");
}

TEST_CASE("router: the server's own first segments come from the route table") {
    const std::vector<RegisteredRoute> routes = {
        route(Method::get, "/healthz"),
        route(Method::put, "/uploads/{key}"),
        route(Method::get, "/d/{slug}/{path...}"),
        route(Method::get, "/{account}/{project}"),  // a capture: no name taken
        route(Method::get, "/{path...}", "sites", "deploy.example.com"),  // another host
        route(Method::post, "/_loupe/session"),
    };
    CHECK(own_first_segments(routes) ==
          std::set<std::string>{"v2", "healthz", "uploads", "d", "_loupe"});
}

}  // namespace loupe
