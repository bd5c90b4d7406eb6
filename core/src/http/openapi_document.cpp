#include "http/openapi_document.hpp"

#include <cctype>
#include <set>
#include <string_view>

#include "auth/oauth_scopes.hpp"
#include "loupe/text/strings.hpp"
#include "loupe/version.hpp"

namespace loupe {
namespace {

struct Capture {
    std::string name;
    bool rest = false;
};

std::string method_key(Method method) {
    return to_lower(to_string(method));
}

std::vector<std::string_view> segments_of(std::string_view pattern) {
    std::vector<std::string_view> segments;
    while (!pattern.empty()) {
        pattern.remove_prefix(pattern.front() == '/' ? 1 : 0);
        const std::size_t slash = pattern.find('/');
        if (!pattern.substr(0, slash).empty()) {
            segments.push_back(pattern.substr(0, slash));
        }
        pattern.remove_prefix(slash == std::string_view::npos ? pattern.size() : slash);
    }
    return segments;
}

std::vector<Capture> captures_of(const std::string& pattern) {
    std::vector<Capture> captures;
    for (std::string_view segment : segments_of(pattern)) {
        if (segment.size() < 2 || segment.front() != '{' || segment.back() != '}') {
            continue;
        }
        segment = segment.substr(1, segment.size() - 2);
        const bool rest = segment.ends_with("...");
        captures.push_back(
            {std::string(rest ? segment.substr(0, segment.size() - 3) : segment), rest});
    }
    return captures;
}

/// "post /projects/{owner}/{project}/builds" → "postProjectsOwnerProjectBuilds".
std::string generated_operation_id(Method method, const std::string& pattern) {
    std::string id = method_key(method);
    bool upper = true;
    for (char c : pattern) {
        if (std::isalnum(static_cast<unsigned char>(c))) {
            id += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
            upper = false;
        } else {
            upper = true;
        }
    }
    return id;
}

std::string_view auth_name(AuthRequirement auth) {
    switch (auth) {
        case AuthRequirement::none:
            return "none";
        case AuthRequirement::project_token:
            return "project_token";
        case AuthRequirement::personal_token:
            return "personal_token";
        case AuthRequirement::personal_token_for_account:
            return "personal_token_for_account";
        case AuthRequirement::project_or_personal_token:
            return "project_or_personal_token";
    }
    return "none";
}

/// The schemes standing in for a personal access token (a browser session, for example).
std::vector<std::string> personal_token_alternatives(const Json& security_schemes) {
    std::vector<std::string> names;
    for (const auto& [name, scheme] : security_schemes.items()) {
        if (scheme.value("x-loupe-alternative-to", "") == "personalAccessToken") {
            names.push_back(name);
        }
    }
    return names;
}

/// The route's security requirements: its tokens, the schemes standing in for a personal
/// access token, and, when the oauth plugin declares the `oauth2` scheme, the scope an access
/// token of `argos login` needs (none: such tokens are refused there).
Json security_for(const Route& route, const std::vector<std::string>& alternatives,
                  bool oauth2_declared) {
    const AuthRequirement auth = route.auth;
    Json security = Json::array();
    const auto require = [&security](const std::string& scheme) {
        security.push_back({{scheme, Json::array()}});
    };
    if (auth == AuthRequirement::project_token ||
        auth == AuthRequirement::project_or_personal_token) {
        require("projectToken");
    }
    if (auth == AuthRequirement::personal_token ||
        auth == AuthRequirement::personal_token_for_account ||
        auth == AuthRequirement::project_or_personal_token) {
        require("personalAccessToken");
        for (const std::string& alternative : alternatives) {
            require(alternative);
        }
        if (const auto scope = oauth_scope_for(route.method, route.pattern);
            scope && oauth2_declared) {
            security.push_back({{"oauth2", Json::array({std::string(*scope)})}});
        }
    }
    return security;
}

Json error_response(const std::string& description) {
    return {{"description", description},
            {"content",
             {{"application/json", {{"schema", {{"$ref", "#/components/schemas/Error"}}}}}}}};
}

bool has_body(Method method) {
    return method == Method::post || method == Method::put || method == Method::patch;
}

/// What an undescribed route is documented as: any JSON (or bytes) in, any JSON out.
Json generic_operation(const Route& route) {
    const Json any_json{{"application/json", {{"schema", Json::object()}}}};
    Json operation;
    operation["summary"] = "Undescribed route";
    operation["responses"]["200"] = {{"description", "A response the plugin did not describe"},
                                     {"content", any_json}};
    if (has_body(route.method)) {
        const Json any_form{{"application/x-www-form-urlencoded", {{"schema", Json::object()}}}};
        const Json any_bytes{{"application/octet-stream", {{"schema", Json::object()}}}};
        operation["requestBody"]["content"] = route.options.body == BodyMode::stream ? any_bytes
                                              : route.options.body == BodyMode::form ? any_form
                                                                                     : any_json;
    }
    return operation;
}

/// The route's captures as path parameters; a parameter the description declares keeps its
/// words but is always a required path parameter.
Json parameters_for(const std::string& pattern, const Json& declared) {
    Json parameters = Json::array();
    for (const Capture& capture : captures_of(pattern)) {
        Json parameter{{"name", capture.name},
                       {"in", "path"},
                       {"required", true},
                       {"schema", {{"type", "string"}}}};
        if (capture.rest) {
            parameter["description"] = "The rest of the path: zero or more segments, with '/'.";
        }
        for (const Json& given : declared) {
            if (given.value("in", "") == "path" && given.value("name", "") == capture.name) {
                parameter.update(given);
                parameter["required"] = true;
            }
        }
        parameters.push_back(std::move(parameter));
    }
    for (const Json& given : declared) {
        if (given.value("in", "") != "path") {
            parameters.push_back(given);
        }
    }
    return parameters;
}

Json operation_for(const RegisteredRoute& registered, const ApiDescriptionRegistry& described,
                   const std::vector<std::string>& alternatives, bool oauth2_declared) {
    const Route& route = registered.route;
    const std::string method = method_key(route.method);
    const Json& operations = described.operations();
    const bool has_description =
        operations.contains(route.pattern) && operations[route.pattern].contains(method);
    Json operation = has_description ? operations[route.pattern][method] : generic_operation(route);

    if (!operation.contains("operationId")) {
        operation["operationId"] = generated_operation_id(route.method, route.pattern);
    }
    if (!operation.contains("tags")) {
        operation["tags"] = Json::array({registered.plugin});
    }
    operation["x-loupe-plugin"] = registered.plugin;
    operation["x-loupe-auth"] = auth_name(route.auth);
    operation["x-loupe-access"] = access_name(route.access);
    if (route.access.guard == RouteAccess::Guard::public_route) {
        operation["x-loupe-public-because"] = route.access.note;
    }
    const Json parameters =
        parameters_for(route.pattern, operation.value("parameters", Json::array()));
    if (parameters.empty()) {
        operation.erase("parameters");
    } else {
        operation["parameters"] = parameters;
    }
    operation["security"] = security_for(route, alternatives, oauth2_declared);

    Json& responses = operation["responses"];
    if (route.auth != AuthRequirement::none && !responses.contains("401")) {
        responses["401"] = error_response("The token is missing, unknown or expired");
    }
    const bool guarded = route.access.guard == RouteAccess::Guard::project ||
                         route.access.guard == RouteAccess::Guard::token_project ||
                         route.access.guard == RouteAccess::Guard::account ||
                         route.access.guard == RouteAccess::Guard::object;
    if (guarded && !responses.contains("403")) {
        responses["403"] = error_response("The caller lacks the permission the route requires");
    }
    if (!responses.contains("default")) {
        responses["default"] =
            error_response("An error: {\"error\": message, \"details\": [{\"message\"}]}");
    }
    return operation;
}

/// A virtual-host route answers on "<site>.<suffix>", not under the API's servers.
Json virtual_host_servers(const std::string& suffix) {
    return Json::array({{{"url", "{scheme}://{site}." + suffix},
                         {"description", "A subdomain of " + suffix},
                         {"variables",
                          {{"scheme", {{"default", "https"}, {"enum", {"https", "http"}}}},
                           {"site", {{"default", "site"}}}}}}});
}

std::string joined(const std::vector<std::string>& names) {
    std::string text;
    for (const std::string& name : names) {
        text += (text.empty() ? "" : ", ") + name;
    }
    return text;
}

}  // namespace

std::string openapi_path(const std::string& pattern) {
    std::string path;
    for (std::string_view segment : segments_of(pattern)) {
        path += '/';
        if (segment.ends_with("...}")) {
            path += std::string(segment.substr(0, segment.size() - 4)) + "}";
        } else {
            path += segment;
        }
    }
    return path.empty() ? "/" : path;
}

Json openapi_document(const std::vector<RegisteredRoute>& routes,
                      const ApiDescriptionRegistry& described, const OpenApiSettings& settings) {
    const std::vector<std::string> alternatives =
        personal_token_alternatives(described.security_schemes());
    const bool oauth2_declared = described.security_schemes().contains("oauth2");
    Json paths = Json::object();
    for (const RegisteredRoute& registered : routes) {
        const Route& route = registered.route;
        Json& item = paths[openapi_path(route.pattern)];
        if (!route.options.host_suffix.empty()) {
            item["servers"] = virtual_host_servers(route.options.host_suffix);
        }
        item[method_key(route.method)] =
            operation_for(registered, described, alternatives, oauth2_declared);
    }
    Json security_schemes = described.security_schemes();
    for (auto& [_, scheme] : security_schemes.items()) {
        scheme.erase("x-loupe-alternative-to");
    }
    return {
        {"openapi", "3.1.0"},
        {"info",
         {{"title", "Loupe"},
          {"version", LOUPE_VERSION},
          {"description",
           "Loupe, a self-hosted visual regression review server that speaks the Argos REST "
           "API. This document lists every route of the enabled plugins (" +
               joined(settings.plugins) + "), built from the running server's route table."}}},
        {"servers",
         Json::array({{{"url", settings.public_url + "/v2"},
                       {"description", "The Argos API base URL (ARGOS_API_BASE_URL)"}},
                      {{"url", settings.public_url},
                       {"description", "Every route answers without the /v2 prefix as well"}}})},
        {"paths", std::move(paths)},
        {"components",
         {{"schemas", described.schemas()}, {"securitySchemes", std::move(security_schemes)}}},
    };
}

std::vector<std::string> descriptions_without_route(const std::vector<RegisteredRoute>& routes,
                                                    const ApiDescriptionRegistry& described) {
    std::set<std::pair<std::string, std::string>> registered;
    for (const RegisteredRoute& route : routes) {
        registered.emplace(route.route.pattern, method_key(route.route.method));
    }
    std::vector<std::string> stale;
    for (const auto& [pattern, item] : described.operations().items()) {
        for (const auto& [method, _] : item.items()) {
            if (!registered.contains({pattern, method})) {
                std::string name = method;
                for (char& c : name) {
                    c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
                }
                stale.push_back(name + " " + pattern);
            }
        }
    }
    return stale;
}

std::vector<std::string> routes_without_description(const std::vector<RegisteredRoute>& routes,
                                                    const ApiDescriptionRegistry& described) {
    std::vector<std::string> missing;
    const Json& operations = described.operations();
    for (const RegisteredRoute& route : routes) {
        const std::string method = method_key(route.route.method);
        if (!operations.contains(route.route.pattern) ||
            !operations[route.route.pattern].contains(method)) {
            missing.push_back(std::string(to_string(route.route.method)) + " " +
                              route.route.pattern + " (" + route.plugin + ")");
        }
    }
    return missing;
}

}  // namespace loupe
