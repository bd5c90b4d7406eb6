#pragma once
// The OpenAPI 3.1 document of `GET /openapi.json`, built from the route table: every registered
// route becomes an operation (path template, path parameters, security from its
// AuthRequirement, the error responses), completed by what its plugin described through the
// ApiDescription service (request and response schemas, query parameters, summary). A route
// nobody described still appears, with a generic body.

#include <string>
#include <vector>

#include "http/openapi_registry.hpp"
#include "loupe/export.hpp"
#include "loupe/json.hpp"
#include "plugin/registries.hpp"

namespace loupe {

struct OpenApiSettings {
    std::string public_url;            ///< without a trailing slash
    std::vector<std::string> plugins;  ///< the enabled plugins, for the description
};

LOUPE_API Json openapi_document(const std::vector<RegisteredRoute>& routes,
                                const ApiDescriptionRegistry& described,
                                const OpenApiSettings& settings);

/// "METHOD pattern" of each described operation that no route registers (a stale description).
LOUPE_API std::vector<std::string> descriptions_without_route(
    const std::vector<RegisteredRoute>& routes, const ApiDescriptionRegistry& described);

/// "METHOD pattern (plugin)" of each route nobody described.
LOUPE_API std::vector<std::string> routes_without_description(
    const std::vector<RegisteredRoute>& routes, const ApiDescriptionRegistry& described);

/// "/d/{site}/{path...}" as an OpenAPI path template: "/d/{site}/{path}".
LOUPE_API std::string openapi_path(const std::string& pattern);

}  // namespace loupe
