#pragma once

#include <functional>
#include <string>
#include <vector>

#include "http/openapi_registry.hpp"
#include "loupe/http/routes.hpp"
#include "plugin/registries.hpp"

namespace loupe {

/// Where GET /openapi.json reads from. The document is built on the first request (the
/// registries are frozen and the public URL final by then) and served from memory afterwards.
struct OpenApiSources {
    const Registries& registries;
    const ApiDescriptionRegistry& described;
    std::function<std::string()> public_url;
    std::function<std::vector<std::string>()> plugins;
};

/// Registers GET /openapi.json (no authentication).
void add_openapi_route(Routes& routes, OpenApiSources sources);

}  // namespace loupe
