#pragma once
// One request, start to finish: strip "/v2", match the route, authenticate the caller (401
// before the body is read), read the JSON body (413/400), run the route's prepare step (400),
// enforce the route's RouteAccess (401/404/403), run the handler, map exceptions to the Argos
// error body, send, and write the access log.

#include <atomic>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "auth/access_gate.hpp"
#include "auth/authenticator.hpp"
#include "http/exchange.hpp"
#include "http/json_body.hpp"
#include "http/router.hpp"
#include "loupe/export.hpp"
#include "loupe/log/logger.hpp"

namespace loupe {

namespace metrics {
class RequestMetrics;
}

struct DispatchOptions {
    std::size_t max_json_bytes = 3 * 1024 * 1024;
    /// Base of the WWW-Authenticate resource_metadata URL on 401s; empty = from the Host header.
    std::string public_url;
    /// Counts every request by route and status, with its latency; null: none kept.
    metrics::RequestMetrics* metrics = nullptr;
    /// While it reads true (the server is draining), every response closes its connection.
    const std::atomic<bool>* draining = nullptr;
    /// Most values (objects, arrays, strings, numbers, literals) a JSON body may hold.
    std::size_t max_json_values = default_max_json_values;
    /// Decides every route's RouteAccess; null (unit tests' servers): only public routes run.
    const AccessGate* access = nullptr;
    /// True for the API's listener: "/v2/..." is served as "/...". An extra listener
    /// (loupe/http/listeners.hpp) matches paths as sent.
    bool api_prefix = true;
    /// Headers added to every response that does not carry them already (an extra listener's).
    std::vector<std::pair<std::string, std::string>> response_headers;
};

/// THREADS: handle() runs concurrently on the server's threads; the Dispatcher is immutable.
class LOUPE_API Dispatcher {
public:
    Dispatcher(DispatchOptions options, const Router& router, const Authenticator& authenticator,
               Logger& log);

    /// Answers the exchange. Never throws. Returns the status sent.
    int handle(Exchange& exchange) const noexcept;

private:
    struct Context;
    Response run(Exchange& exchange, Context& context) const;
    AccessGrant check_access(const RouteAccess& access, Request& request) const;
    Response from_error(const HttpError& error, const Exchange& exchange) const;
    void log_internal_error(const Context& context, const char* what) const noexcept;
    void log_access(const Exchange& exchange, const Context& context, int status,
                    double duration_ms) const noexcept;

    DispatchOptions options_;
    const Router& router_;
    const Authenticator& authenticator_;
    Logger& log_;
};

}  // namespace loupe
