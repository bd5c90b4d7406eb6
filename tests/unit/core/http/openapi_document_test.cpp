// GET /openapi.json's document against the route table: every route the enabled plugins
// register appears with its path parameters and security, every in-tree route is described by
// its plugin, and no description outlives its route.
#include "http/openapi_document.hpp"

#include <doctest/doctest.h>

#include <set>

#include "runtime.hpp"
#include "support/build_paths.hpp"
#include "support/test_database.hpp"

namespace {

using loupe::Json;

/// A runtime with `enabled` loaded from `plugin_dir`, and the document of its routes.
struct Described {
    loupe::test::TestDatabase database;
    loupe::test::TempDir data;
    std::unique_ptr<loupe::Runtime> runtime;
    Json document;

    Described(const std::string& plugin_dir, const std::string& enabled) {
        runtime = std::make_unique<loupe::Runtime>(
            loupe::Config::load("", {{"db.url", database.url()},
                                     {"data.dir", data.path()},
                                     {"plugins.path", plugin_dir},
                                     {"plugins.enabled", enabled},
                                     {"plugins.deployments.domain", "deploy.example.com"},
                                     {"log.level", "error"}}));
        runtime->load_plugins();
        std::vector<std::string> plugins;
        for (const auto& plugin : runtime->plugins()) {
            plugins.push_back(plugin.name);
        }
        document = loupe::openapi_document(runtime->registries().routes, runtime->api_description(),
                                           {"https://loupe.example.com", plugins});
    }
    const std::vector<loupe::RegisteredRoute>& routes() const {
        return runtime->registries().routes;
    }
};

std::string method_key(loupe::Method method) {
    std::string key(loupe::to_string(method));
    for (char& c : key) {
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    return key;
}

std::set<std::string> path_parameter_names(const Json& operation) {
    std::set<std::string> names;
    for (const Json& parameter : operation.value("parameters", Json::array())) {
        if (parameter.at("in") == "path") {
            names.insert(parameter.at("name").get<std::string>());
        }
    }
    return names;
}

std::set<std::string> captures_of(const std::string& pattern) {
    std::set<std::string> names;
    for (std::size_t open = pattern.find('{'); open != std::string::npos;
         open = pattern.find('{', open + 1)) {
        std::string name = pattern.substr(open + 1, pattern.find('}', open) - open - 1);
        if (name.ends_with("...")) {
            name.resize(name.size() - 3);
        }
        names.insert(name);
    }
    return names;
}

const char* const all_plugins =
    "auth, builds, reviews, deployments, web, analytics, git, sso, oauth, automation, "
    "notifications";

}  // namespace

TEST_CASE("openapi: every route of every plugin is in the document, described by its plugin") {
    const Described described(LOUPE_TEST_PLUGIN_DIR, all_plugins);
    const Json& document = described.document;
    const auto& routes = described.routes();
    REQUIRE(routes.size() > 50);

    std::size_t operations = 0;
    for (const auto& [path, item] : document.at("paths").items()) {
        for (const auto& [key, _] : item.items()) {
            operations += key == "servers" ? 0 : 1;
        }
    }
    CHECK(operations == routes.size());

    for (const auto& registered : routes) {
        const auto& route = registered.route;
        const std::string path = loupe::openapi_path(route.pattern);
        CAPTURE(route.pattern);
        REQUIRE(document["paths"].contains(path));
        REQUIRE(document["paths"][path].contains(method_key(route.method)));
        const Json& operation = document["paths"][path][method_key(route.method)];
        CHECK(operation.at("x-loupe-plugin") == registered.plugin);
        CHECK(path_parameter_names(operation) == captures_of(route.pattern));
        CHECK(operation.at("security").empty() == (route.auth == loupe::AuthRequirement::none));
        CHECK(operation.at("responses").contains("default"));
        CHECK(operation.at("summary") != "Undescribed route");
    }
    const auto& api = described.runtime->api_description();
    CHECK(loupe::routes_without_description(routes, api) == std::vector<std::string>{});
    CHECK(loupe::descriptions_without_route(routes, api) == std::vector<std::string>{});

    // Every $ref names a schema of the document.
    const std::string text = document.dump();
    for (std::size_t at = text.find("#/components/schemas/"); at != std::string::npos;
         at = text.find("#/components/schemas/", at + 1)) {
        const std::size_t start = at + std::string("#/components/schemas/").size();
        const std::string name = text.substr(start, text.find('"', start) - start);
        CAPTURE(name);
        CHECK(document["components"]["schemas"].contains(name));
    }
    CHECK(document.at("servers").at(0).at("url") == "https://loupe.example.com/v2");
    CHECK(document["components"]["securitySchemes"].contains("projectToken"));
    CHECK(document["components"]["securitySchemes"].contains("personalAccessToken"));
}

TEST_CASE("openapi: the document holds only the enabled plugins' routes") {
    const Described described(LOUPE_TEST_PLUGIN_DIR, "auth, builds");
    const Json& document = described.document;
    CHECK(document["paths"].contains("/builds/{buildId}"));
    CHECK(document["paths"].contains("/project"));
    CHECK_FALSE(document["paths"].contains("/deployments"));
    CHECK_FALSE(
        document["paths"].contains("/projects/{owner}/{project}/builds/{buildNumber}/reviews"));
    // Schemas of a plugin that is not enabled are not there either.
    CHECK_FALSE(document["components"]["schemas"].contains("Deployment"));
    CHECK(document["paths"]["/builds/{buildId}"]["put"]["security"] ==
          Json::parse(R"([{"projectToken": []}])"));
}

TEST_CASE("openapi: a route nobody described still appears, and is reported") {
    const Described described(LOUPE_TEST_FIXTURE_PLUGIN_DIR, "valid");
    const Json& document = described.document;
    REQUIRE(document["paths"].contains("/fixture/ping"));
    const Json& operation = document["paths"]["/fixture/ping"]["get"];
    CHECK(operation.at("summary") == "Undescribed route");
    CHECK(operation.at("x-loupe-plugin") == "valid");
    CHECK(operation.at("responses").contains("200"));
    const auto missing =
        loupe::routes_without_description(described.routes(), described.runtime->api_description());
    CHECK(std::find(missing.begin(), missing.end(), "GET /fixture/ping (valid)") != missing.end());
}

TEST_CASE("openapi: a description is refused whole when it is malformed or repeats another") {
    loupe::ApiDescriptionRegistry registry;
    registry.add(R"({"paths": {"/a/{id}": {"get": {"summary": "A"}}},
                     "components": {"schemas": {"A": {"type": "object"}}}})");
    CHECK_THROWS_WITH_AS(registry.add(R"({"paths": {"/a/{id}": {"get": {}}}})"),
                         "API description: operation get /a/{id} is described twice",
                         std::invalid_argument);
    CHECK_THROWS_WITH_AS(registry.add(R"({"paths": {"/b": {"fetch": {}}}})"),
                         "API description: path /b: \"fetch\" is not an HTTP method",
                         std::invalid_argument);
    CHECK_THROWS_WITH_AS(registry.add(R"({"paths": {"/c": {"get": {}}}, "info": {}})"),
                         doctest::Contains("not \"info\""), std::invalid_argument);
    CHECK_THROWS_WITH_AS(registry.add("{\"paths\": "),
                         "API description: a fragment is not valid JSON", std::invalid_argument);
    // The second schema repeats "A": nothing of this fragment is kept, not even "/d".
    CHECK_THROWS_WITH_AS(registry.add(R"({"paths": {"/d": {"get": {}}},
                                         "components": {"schemas": {"A": {}}}})"),
                         "API description: schema 'A' is described twice", std::invalid_argument);
    CHECK_FALSE(registry.operations().contains("/d"));
    CHECK(registry.operations().size() == 1);
    CHECK(loupe::openapi_path("/d/{site}/{path...}") == "/d/{site}/{path}");
    CHECK(loupe::openapi_path("/") == "/");
}
