#include "http/openapi_registry.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>

namespace loupe {
namespace {

constexpr std::array<std::string_view, 7> operation_methods{"get",   "put",     "post", "delete",
                                                            "patch", "options", "head"};

[[noreturn]] void refuse(const std::string& why) {
    throw std::invalid_argument("API description: " + why);
}

void expect_object(const Json& value, const std::string& where) {
    if (!value.is_object()) {
        refuse(where + " must be a JSON object");
    }
}

/// Adds each entry of `from` to `into`; a name already there is refused.
void merge_named(Json& into, const Json& from, const std::string& what) {
    expect_object(from, what);
    for (const auto& [name, value] : from.items()) {
        if (into.contains(name)) {
            refuse(what + " '" + name + "' is described twice");
        }
        expect_object(value, what + " '" + name + "'");
        into[name] = value;
    }
}

/// Properties a plugin adds to another's object schema (its fields of the Project resource).
constexpr const char* extension_key = "x-loupe-extend-schemas";

void extend_schemas(Json& schemas, const Json& extensions) {
    expect_object(extensions, extension_key);
    for (const auto& [name, extension] : extensions.items()) {
        if (!schemas.contains(name) || schemas[name].value("type", "") != "object") {
            refuse(std::string(extension_key) + ": no object schema '" + name + "' to extend");
        }
        Json& schema = schemas[name];
        const Json properties = extension.value("properties", Json::object());
        for (const auto& [property, definition] : properties.items()) {
            if (schema["properties"].contains(property)) {
                refuse("property '" + property + "' of schema '" + name + "' is described twice");
            }
            schema["properties"][property] = definition;
        }
        for (const Json& required : extension.value("required", Json::array())) {
            schema["required"].push_back(required);
        }
    }
}

}  // namespace

void ApiDescriptionRegistry::add(std::string_view openapi_fragment) {
    Json fragment = Json::parse(openapi_fragment, nullptr, false);
    if (fragment.is_discarded()) {
        refuse("a fragment is not valid JSON");
    }
    expect_object(fragment, "a fragment");
    for (const auto& [key, _] : fragment.items()) {
        if (key != "paths" && key != "components") {
            refuse("a fragment holds only \"paths\" and \"components\", not \"" + key + "\"");
        }
    }
    Json operations = operations_;
    if (fragment.contains("paths")) {
        expect_object(fragment["paths"], "\"paths\"");
        for (const auto& [pattern, item] : fragment["paths"].items()) {
            expect_object(item, "path " + pattern);
            for (const auto& [method, operation] : item.items()) {
                if (std::find(operation_methods.begin(), operation_methods.end(), method) ==
                    operation_methods.end()) {
                    refuse("path " + pattern + ": \"" + method + "\" is not an HTTP method");
                }
                if (operations.contains(pattern) && operations[pattern].contains(method)) {
                    refuse("operation " + method + " " + pattern + " is described twice");
                }
                expect_object(operation, "operation " + method + " " + pattern);
                operations[pattern][method] = operation;
            }
        }
    }
    Json schemas = schemas_;
    Json security_schemes = security_schemes_;
    if (fragment.contains("components")) {
        const Json& components = fragment["components"];
        expect_object(components, "\"components\"");
        for (const auto& [key, value] : components.items()) {
            if (key == "schemas") {
                merge_named(schemas, value, "schema");
            } else if (key == "securitySchemes") {
                merge_named(security_schemes, value, "security scheme");
            } else if (key != extension_key) {
                refuse("\"components\" holds only \"schemas\", \"securitySchemes\" and \"" +
                       std::string(extension_key) + "\", not \"" + key + "\"");
            }
        }
        if (components.contains(extension_key)) {
            extend_schemas(schemas, components[extension_key]);
        }
    }
    // All or nothing: a refused fragment leaves no part of itself behind.
    operations_ = std::move(operations);
    schemas_ = std::move(schemas);
    security_schemes_ = std::move(security_schemes);
}

}  // namespace loupe
