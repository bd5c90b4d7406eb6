#include "http/dispatcher.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <optional>
#include <stdexcept>

#include "auth/oauth_scopes.hpp"
#include "http/error_response.hpp"
#include "http/media_type.hpp"
#include "http/request_id.hpp"
#include "http/server_request.hpp"
#include "loupe/http/http_error.hpp"
#include "metrics/request_metrics.hpp"

namespace loupe {

struct Dispatcher::Context {
    std::string request_id;
    std::string method_text;
    std::string path;
    std::optional<Method> method;
    const RegisteredRoute* route = nullptr;
};

namespace {

/// The API answers both at "/..." and at "/v2/...".
std::string_view api_path(std::string_view path) {
    if (path == api_prefix) {
        return "/";
    }
    if (path.starts_with(api_prefix) && path.substr(api_prefix.size()).starts_with('/')) {
        path.remove_prefix(api_prefix.size());
    }
    return path;
}

std::string allow_header(const std::vector<Method>& methods) {
    std::string allow;
    for (Method method : methods) {
        if (!allow.empty()) {
            allow += ", ";
        }
        allow += to_string(method);
    }
    return allow;
}

/// Keeps client-supplied text from breaking out of a quoted header parameter.
std::string header_safe(std::string_view text) {
    std::string safe;
    for (char c : text) {
        if (c != '"' && c != '\\' && static_cast<unsigned char>(c) >= 0x20 && c != 0x7f) {
            safe.push_back(c);
        }
    }
    return safe;
}

/// Adds each of `headers` the response does not carry yet (names compared without case).
void add_missing_headers(Response& response,
                         const std::vector<std::pair<std::string, std::string>>& headers) {
    for (const auto& wanted : headers) {
        // References to the pair's parts: clang-tidy's parser refuses a lambda capturing a
        // structured binding.
        const std::string& name = wanted.first;
        const std::string& value = wanted.second;
        const bool present =
            std::any_of(response.headers.begin(), response.headers.end(), [&](const auto& header) {
                return std::equal(header.first.begin(), header.first.end(), name.begin(),
                                  name.end(), [](char a, char b) {
                                      return std::tolower(static_cast<unsigned char>(a)) ==
                                             std::tolower(static_cast<unsigned char>(b));
                                  });
            });
        if (!present) {
            response.headers.emplace_back(name, value);
        }
    }
}

bool is_valid_status(int status) {
    return status >= 100 && status <= 599;
}

}  // namespace

Dispatcher::Dispatcher(DispatchOptions options, const Router& router,
                       const Authenticator& authenticator, Logger& log)
    : options_(std::move(options)), router_(router), authenticator_(authenticator), log_(log) {
    while (!options_.public_url.empty() && options_.public_url.back() == '/') {
        options_.public_url.pop_back();
    }
}

int Dispatcher::handle(Exchange& exchange) const noexcept {
    const auto started = std::chrono::steady_clock::now();
    if (options_.metrics != nullptr) {
        options_.metrics->started();
    }
    Context context;
    int status = 500;
    try {
        context.request_id = new_request_id();
        context.method_text = exchange.method();
        context.path = exchange.path();
        Response response;
        bool close_connection = false;
        try {
            response = run(exchange, context);
            if (!is_valid_status(response.status)) {
                throw std::logic_error("handler returned HTTP status " +
                                       std::to_string(response.status));
            }
        } catch (const HttpError& error) {
            if (is_valid_status(error.status())) {
                response = from_error(error, exchange);
                // Never let civetweb read on through the rest of an oversized body.
                close_connection = error.status() == 413;
            } else {
                log_internal_error(context, error.what());
                response = internal_error_response();
            }
        } catch (const std::exception& error) {
            log_internal_error(context, error.what());
            response = internal_error_response();
        } catch (...) {
            log_internal_error(context, "unknown exception");
            response = internal_error_response();
        }
        if (options_.draining != nullptr && options_.draining->load()) {
            close_connection = true;  // the server is shutting down: no next request here
        }
        const bool headers_only = context.method == Method::head;
        add_missing_headers(response, options_.response_headers);
        response.headers.emplace_back("X-Request-Id", context.request_id);
        try {
            exchange.send(response, headers_only, close_connection);
        } catch (const std::exception& error) {
            // send() throws only before writing anything, e.g. for a vanished file.
            log_internal_error(context, error.what());
            response = internal_error_response();
            response.headers.emplace_back("X-Request-Id", context.request_id);
            exchange.send(response, headers_only, close_connection);
        }
        status = response.status;
    } catch (...) {
        log_internal_error(context, "failed to send the response");
    }
    const std::chrono::duration<double, std::milli> elapsed =
        std::chrono::steady_clock::now() - started;
    if (options_.metrics != nullptr) {
        options_.metrics->finished(context.route, context.method, status, elapsed.count() / 1000.0);
    }
    log_access(exchange, context, status, elapsed.count());
    return status;
}

Response Dispatcher::run(Exchange& exchange, Context& context) const {
    if (const auto problem = check_request_head(exchange.head())) {
        exchange.abandon_body();
        throw HttpError(problem->status, problem->message);
    }
    context.method = parse_method(exchange.method());
    const std::string_view virtual_host =
        router_.virtual_host_of(exchange.header("Host").value_or(""));
    // The API's listener answers "/v2/..." as "/..."; a virtual host and an extra listener
    // match paths as sent.
    const bool api_paths = virtual_host.empty() && options_.api_prefix;
    const std::string_view path =
        api_paths ? api_path(exchange.path()) : std::string_view(exchange.path());
    // The front end's pages answer a browser asking for a document, never an API path.
    const bool pages =
        path.size() == exchange.path().size() && asks_for_html(exchange.header("Accept"));
    // An unknown method still learns whether the path exists: 405 rather than 404.
    RouteMatch match =
        router_.match(context.method.value_or(Method::get), path, virtual_host, pages);
    if (match.outcome == RouteMatch::Outcome::not_found) {
        throw HttpError(404, "Not Found");
    }
    if (!context.method || match.outcome == RouteMatch::Outcome::method_not_allowed) {
        const std::string allow = allow_header(match.allowed);
        if (context.method == Method::options) {
            return Response::no_content().with_header("Allow", allow);
        }
        return error_response(405, "Method Not Allowed").with_header("Allow", allow);
    }
    context.route = match.route;
    const Route& route = match.route->route;
    ServerRequest request(
        exchange, *context.method, std::string(path), std::move(match.params), context.request_id,
        route.options.max_json_bytes > 0 ? route.options.max_json_bytes : options_.max_json_bytes,
        options_.max_json_values);
    const std::optional<std::size_t> length = exchange.content_length();
    const bool has_body = !length || *length > 0;  // chunked, or a declared length
    // A request with a body names its caller before a byte of it is read: without a valid token
    // it costs a lookup, never the reading or parsing of what it sent. A request without one
    // is validated first (its query), as Argos answers 400 before 401.
    const auto authenticate = [&] {
        request.set_principal(
            authenticator_.authenticate(request, route.auth, request.find_param("accountSlug")));
        require_oauth_scope(request.principal(), route.method, route.pattern);
    };
    if (has_body) {
        authenticate();
    }
    if (route.options.body == BodyMode::json) {
        if (has_body && !is_json_media_type(exchange.header("Content-Type"))) {
            throw HttpError(415, "Unsupported Media Type: send the body as application/json");
        }
        // Express's body parser runs first: 413 and malformed JSON precede validation.
        request.json();
    } else if (route.options.body == BodyMode::form) {
        if (has_body && !is_form_media_type(exchange.header("Content-Type"))) {
            throw HttpError(415,
                            "Unsupported Media Type: send the body as "
                            "application/x-www-form-urlencoded");
        }
        request.body();
    }
    Handler handler = route.prepare(request);
    if (!handler) {
        throw std::logic_error("prepare step returned no handler");
    }
    if (!has_body) {
        authenticate();
    }
    request.set_access(check_access(route.access, request));
    return handler(request);
}

AccessGrant Dispatcher::check_access(const RouteAccess& access, Request& request) const {
    if (options_.access != nullptr) {
        return options_.access->check(access, request);
    }
    // Without a gate (servers of unit tests) only routes that need no permission can run.
    if (access.guard == RouteAccess::Guard::public_route) {
        return {};
    }
    throw std::logic_error("no access gate to decide " + access_name(access));
}

Response Dispatcher::from_error(const HttpError& error, const Exchange& exchange) const {
    Response response = error_response(error.status(), error.what(), error.details());
    if (error.status() == 401) {
        std::string base = options_.public_url;
        if (base.empty()) {
            base = "http://" + header_safe(exchange.header("Host").value_or("localhost"));
        }
        response.with_header("WWW-Authenticate", "Bearer resource_metadata=\"" + base +
                                                     "/.well-known/oauth-protected-resource\"");
    }
    return response;
}

void Dispatcher::log_internal_error(const Context& context, const char* what) const noexcept {
    try {
        log_.error("http.internal_error",
                   {{"request_id", context.request_id},
                    {"method", context.method_text},
                    {"path", context.path},
                    {"route", context.route ? context.route->route.pattern : "-"},
                    {"route_plugin", context.route ? context.route->plugin : "-"},
                    {"error", what}});
    } catch (...) {  // logging must not take the request down with it
    }
}

void Dispatcher::log_access(const Exchange& exchange, const Context& context, int status,
                            double duration_ms) const noexcept {
    try {
        char duration[32];
        std::snprintf(duration, sizeof duration, "%.1f", duration_ms);
        const std::string plugin = context.route ? context.route->plugin : "-";
        const std::optional<std::string> client_id = exchange.header("x-argos-request-id");
        if (client_id) {
            log_.info("http.request", {{"method", context.method_text},
                                       {"path", context.path},
                                       {"status", std::to_string(status)},
                                       {"duration_ms", duration},
                                       {"request_id", context.request_id},
                                       {"route_plugin", plugin},
                                       {"client_request_id", *client_id}});
        } else {
            log_.info("http.request", {{"method", context.method_text},
                                       {"path", context.path},
                                       {"status", std::to_string(status)},
                                       {"duration_ms", duration},
                                       {"request_id", context.request_id},
                                       {"route_plugin", plugin}});
        }
    } catch (...) {  // logging must not take the request down with it
    }
}

}  // namespace loupe
