#pragma once
// What a plugin tells `GET /openapi.json` about its routes. The document itself is built by the
// core from the route table (every registered route appears, with its method, path parameters
// and authentication); a plugin adds what only it knows: the request and response schemas,
// summaries and query parameters of its operations.
//
// A description is a fragment of an OpenAPI 3.1 document, as JSON text:
//   {"paths": {"/builds/{buildId}": {"put": {"summary": ..., "requestBody": ...,
//                                             "responses": {"200": ...}}}},
//    "components": {"schemas": {"Build": {...}}, "securitySchemes": {...}}}
// Paths are written exactly as the route was registered ("/d/{site}/{path...}"). The core adds
// the path parameters, the security requirement and the error responses itself. A security
// scheme carrying "x-loupe-alternative-to": "personalAccessToken" is listed as another way to
// meet every requirement of a personal access token (e.g. the web plugin's session cookie).
// "components": {"x-loupe-extend-schemas": {"Project": {"properties": {...}, "required": [...]}}}
// adds a plugin's fields to an object schema described earlier (its settings in the Project).
//
// Plugins keep their fragments as JSON files in their `api/` folder; loupe_add_plugin compiles
// them in, and install() passes them on with one line:
//   loupe::describe_api(host.services(), loupe::embedded_api_description());

#include <string_view>
#include <vector>

#include "loupe/services/services.hpp"

namespace loupe {

class ApiDescription {
public:
    static constexpr const char* service_name = "core.ApiDescription";
    static constexpr int service_version = 1;

    virtual ~ApiDescription() = default;

    /// Merges one fragment. Throws std::invalid_argument when the text is not a JSON object of
    /// "paths" and "components", names an unknown method, or describes an operation, schema or
    /// security scheme that is already described.
    virtual void add(std::string_view openapi_fragment) = 0;
};

/// The JSON files of the plugin's `api/` folder, compiled in by loupe_add_plugin (defined only
/// in a plugin that has such a folder).
const std::vector<std::string_view>& embedded_api_description();

/// Adds each fragment to the core's ApiDescription service (when the core offers one).
inline void describe_api(Services& services, const std::vector<std::string_view>& fragments) {
    if (auto* description = services.find<ApiDescription>()) {
        for (std::string_view fragment : fragments) {
            description->add(fragment);
        }
    }
}

}  // namespace loupe
