#pragma once
// The HTTP front: civetweb threads (one per open connection, up to max_connections, watched by
// a ConnectionGuard), one catch-all handler that strips an optional "/v2" prefix, matches the
// Router, runs prepare → authenticate → handler on the handler pool, and writes the response.
// Errors become the Argos JSON body; unknown paths a JSON 404, wrong methods a JSON 405;
// bodies over the route's limit a 413. HEAD is answered for GET routes. drain() stops accepting
// connections and lets the requests in progress finish before stopping.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "auth/access_gate.hpp"
#include "auth/authenticator.hpp"
#include "http/connection_guard.hpp"
#include "http/json_body.hpp"
#include "http/router.hpp"
#include "loupe/export.hpp"
#include "loupe/log/logger.hpp"

namespace loupe {

namespace metrics {
class RequestMetrics;
}

struct ServerOptions {
    std::string listen_address = "0.0.0.0";
    int port = 8080;   ///< 0 = ephemeral; bound_port() tells which
    int threads = 16;  ///< handler threads: requests processed at once
    /// Connections served at once (civetweb's threads, each waiting on its connection's head
    /// and body); more wait in the accept queue. Slow clients hold these, not handler threads.
    int max_connections = 128;
    GuardOptions guard;
    std::size_t max_json_bytes = 3 * 1024 * 1024;
    std::string access_log;  ///< empty = none; else a Common Log Format file civetweb appends to
    /// `http.public_url`, for the resource_metadata URL of 401s; empty = from the Host header.
    std::string public_url;
    /// Counts requests by route and status (GET /metrics); null: none kept.
    metrics::RequestMetrics* metrics = nullptr;
    /// Most values a JSON body may hold (http.max_json_values).
    std::size_t max_json_values = default_max_json_values;
    /// Decides every route's RouteAccess (it must outlive the server); null: only public routes
    /// run.
    const AccessGate* access = nullptr;
    /// False for an extra listener (loupe/http/listeners.hpp): paths are matched as sent,
    /// without stripping "/v2".
    bool api_prefix = true;
    /// Names the listener in the log ("api" for the API's).
    std::string name = "api";
    /// Headers every response carries unless its handler set them (an extra listener's).
    std::vector<std::pair<std::string, std::string>> response_headers;
};

/// OWNERSHIP: the router, authenticator and logger must outlive the server.
class LOUPE_API HttpServer {
public:
    HttpServer(ServerOptions options, const Router& router, const Authenticator& authenticator,
               Logger& log);
    ~HttpServer();
    /// Starts listening; throws std::runtime_error (port in use, ...). Returns the bound port.
    int start();
    void stop();
    /// Closes the listening socket (new connections are refused), answers the requests that
    /// arrive on open connections with `Connection: close`, waits until no request is in
    /// progress or `deadline`, then stops. Returns how many requests were still in progress
    /// at the deadline (they are cut short).
    int drain(std::chrono::steady_clock::time_point deadline);
    int bound_port() const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace loupe
