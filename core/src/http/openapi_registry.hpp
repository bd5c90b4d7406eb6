#pragma once
// The ApiDescription service: the plugins' OpenAPI fragments (operations, schemas, security
// schemes), merged. Filled during install(); read-only once the registries are frozen.

#include <string>
#include <string_view>
#include <vector>

#include "loupe/export.hpp"
#include "loupe/http/api_description.hpp"
#include "loupe/json.hpp"

namespace loupe {

class LOUPE_API ApiDescriptionRegistry final : public ApiDescription {
public:
    void add(std::string_view openapi_fragment) override;

    /// {pattern: {method: Operation}}, patterns as registered.
    const Json& operations() const { return operations_; }
    const Json& schemas() const { return schemas_; }
    const Json& security_schemes() const { return security_schemes_; }

private:
    Json operations_ = Json::object();
    Json schemas_ = Json::object();
    Json security_schemes_ = Json::object();
};

/// The core's own fragments (core/src/http/api/*.json): its routes and the shared schemas.
const std::vector<std::string_view>& core_api_description();

}  // namespace loupe
