#pragma once
// A request as a handler sees it. OWNERSHIP: lent by the core for the duration of the call.
// THREADS: one request is handled by one thread.

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "loupe/auth/principal.hpp"
#include "loupe/auth/route_access.hpp"
#include "loupe/http/method.hpp"
#include "loupe/json.hpp"

namespace loupe {

class LOUPE_API Request {
public:
    virtual ~Request();

    virtual Method method() const = 0;
    /// Path relative to the API root ("/builds/12"), without the "/v2" prefix or query.
    virtual const std::string& path() const = 0;
    /// A `{name}` segment of the route pattern, percent-decoded. Throws if the route has none.
    virtual const std::string& param(std::string_view name) const = 0;
    /// First value of a query parameter, percent-decoded.
    virtual std::optional<std::string> query(std::string_view name) const = 0;
    /// Number of times a query parameter appears (Express turns repeats into arrays).
    virtual std::size_t query_count(std::string_view name) const = 0;
    /// Every value of a query parameter, in the order sent, percent-decoded.
    virtual std::vector<std::string> query_values(std::string_view name) const = 0;
    /// The query string as sent (still percent-encoded), without '?'; empty when none.
    virtual std::string query_string() const = 0;
    virtual std::optional<std::string> header(std::string_view name) const = 0;
    /// Client address, for logs.
    virtual std::string remote_address() const = 0;
    /// Id of this request, for logs and error reports.
    virtual const std::string& request_id() const = 0;

    /// The whole body (read on first call, bounded by the route's body limit: 413 above it).
    virtual const std::string& body() = 0;
    /// The body parsed as JSON; malformed JSON is a 400. An empty body gives a null Json.
    virtual const Json& json() = 0;
    /// Streams the body for routes registered with BodyMode::stream: reads up to `size` bytes,
    /// returns 0 at the end. Content-Length is required for streamed bodies.
    virtual std::size_t read(char* buffer, std::size_t size) = 0;
    virtual std::optional<std::size_t> content_length() const = 0;

    /// The authenticated caller; anonymous for AuthRequirement::none routes.
    virtual const Principal& principal() const = 0;
    /// What the route's RouteAccess established: its project (or account) and the caller's
    /// permissions on it. Empty for public routes.
    virtual const AccessGrant& access() const = 0;
};

}  // namespace loupe
