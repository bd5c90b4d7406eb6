#pragma once
// Extra HTTP listeners: a port of its own, with a route table of its own, that a plugin asks
// the core for during install() (Host::listeners()). It is for content that must never share
// the API's origin: the deployments plugin serves sites there. `loupe serve` starts each one
// next to the API's listener with the same protections (the slow-client guard of the http.*
// keys, request limits, access log), counts its requests in GET /metrics under the label
// `listener="<name>"`, and drains it with the API's listener at shutdown.
//
// What such a listener never does: authenticate. Its routes take AuthRequirement::none only,
// it knows no token resolver and no session resolver, so no token or cookie of the review page
// is read there. Its paths are matched as sent (no "/v2" prefix is stripped).

#include <string>
#include <utility>
#include <vector>

#include "loupe/export.hpp"
#include "loupe/http/routes.hpp"

namespace loupe {

struct ListenerSpec {
    /// 1 to 32 of [a-z0-9-]; names the listener in logs, metrics and `loupe serve`'s output.
    std::string name;
    /// The address to bind; empty: the API's `http.listen_address`.
    std::string listen_address;
    /// 0: an ephemeral port (public_url() tells which once listening).
    int port = 0;
    /// The base URL clients reach it at, without a trailing slash; empty:
    /// http://127.0.0.1:<bound port>.
    std::string public_url;
    int threads = 4;           ///< handler threads: requests processed at once
    int max_connections = 64;  ///< connections served at once (more wait in the accept queue)
    /// Headers every answer of the listener carries, the core's own errors (404, 405, 413, ...)
    /// included, unless the handler set the same header itself.
    std::vector<std::pair<std::string, std::string>> response_headers;
};

/// OWNERSHIP: owned by the core for the process lifetime. THREADS: routes() during install()
/// only; public_url() from any thread.
class LOUPE_API Listener {
public:
    virtual ~Listener();
    virtual const std::string& name() const = 0;
    /// This listener's own route table. Registering a route that asks for authentication
    /// throws std::logic_error; so does registering after install().
    virtual Routes& routes() = 0;
    /// The spec's public_url, else http://127.0.0.1:<port>. Final once `loupe serve` listens
    /// (before that, and in commands that do not serve, the configured port: 0 when ephemeral).
    virtual std::string public_url() const = 0;
};

class LOUPE_API Listeners {
public:
    virtual ~Listeners();
    /// A new listener. Throws std::logic_error for an invalid name, or one another listener of
    /// this process already has.
    virtual Listener& add(ListenerSpec spec) = 0;
};

}  // namespace loupe
