#pragma once
// The HTTP servers of the extra listeners plugins asked for (loupe/http/listeners.hpp): one
// per listener, each with its own Router over its own route table, an Authenticator that knows
// no token or session resolver, its own request metrics (label listener="<name>"), and the
// API listener's guard and limits.

#include <chrono>
#include <memory>
#include <ostream>
#include <vector>

#include "http/server.hpp"
#include "metrics/request_metrics.hpp"
#include "runtime.hpp"

namespace loupe {

class ExtraListeners {
public:
    /// `api`: the API listener's options, whose guard, limits and access log every extra
    /// listener shares. Builds the servers; nothing listens yet.
    ExtraListeners(Runtime& runtime, const ServerOptions& api);
    ~ExtraListeners();
    ExtraListeners(const ExtraListeners&) = delete;
    ExtraListeners& operator=(const ExtraListeners&) = delete;

    /// Starts every listener and records its bound port; throws std::runtime_error naming the
    /// listener that cannot listen.
    void start();
    /// One line per listener: `loupe: listener NAME at PUBLIC_URL (listening on ADDRESS:PORT)`.
    void print(std::ostream& out) const;
    /// Drains every listener at once (as HttpServer::drain), until `deadline`.
    void drain(std::chrono::steady_clock::time_point deadline);
    /// Their request metrics, to be collected with the API listener's.
    std::vector<const metrics::RequestMetrics*> metrics() const;

private:
    struct Server;
    std::vector<std::unique_ptr<Server>> servers_;
};

}  // namespace loupe
