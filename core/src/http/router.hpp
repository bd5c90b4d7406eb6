#pragma once
// Immutable route table: literal segments, `{param}` captures and, as the last segment only, a
// `{param...}` capture of the rest of the path (zero or more segments, decoded one by one and
// joined with '/'). A literal segment wins over a capture at the same position
// ("/builds/finalize" before "/builds/{buildId}"), and a route of fixed length over a rest
// capture. Routes registered for a virtual host (RouteOptions::host_suffix) answer only requests
// whose Host is a subdomain of it, and such requests see no other route.

#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "loupe/export.hpp"
#include "loupe/http/method.hpp"
#include "plugin/registries.hpp"

namespace loupe {

/// The prefix the API also answers under ("/v2/builds" is "/builds"); the dispatcher strips it.
inline constexpr std::string_view api_prefix = "/v2";

/// The first path segments the server answers itself on its main host: the API prefix ("v2")
/// and the first literal segment of every route not bound to a virtual host ("_loupe", "d",
/// "uploads", "healthz", "projects", ...). A page path starting with one of them is never the
/// front end's, so no account may take such a slug.
LOUPE_API std::set<std::string> own_first_segments(const std::vector<RegisteredRoute>& routes);

struct RouteMatch {
    enum class Outcome { found, not_found, method_not_allowed };
    Outcome outcome = Outcome::not_found;
    const RegisteredRoute* route = nullptr;
    std::map<std::string, std::string, std::less<>> params;  ///< percent-decoded
    std::vector<Method> allowed;                             ///< for 405's Allow header
};

/// OWNERSHIP: keeps pointers into `routes`, which must outlive the Router (the frozen
/// registries do). THREADS: immutable after construction; match() is safe from any thread.
class LOUPE_API Router {
public:
    /// Throws std::invalid_argument on a malformed pattern or two routes with the same
    /// method and shape, naming both plugins.
    explicit Router(const std::vector<RegisteredRoute>& routes);
    /// `path` without query string; a leading "/v2" is stripped by the caller (not for a
    /// virtual host). A trailing slash is ignored. HEAD falls back to the GET route of the same
    /// path, and `allowed` is filled whenever the path exists (HEAD listed wherever GET is).
    /// `virtual_host`: the suffix virtual_host_of() found for the request, or empty.
    /// `pages`: whether the front end's page routes (RouteOptions::page) take part; without
    /// them a page path is as unknown as any other.
    RouteMatch match(Method method, std::string_view path, std::string_view virtual_host = {},
                     bool pages = true) const;

    /// The registered host suffix the request's Host header (any case, with or without a port)
    /// is a subdomain of; empty when it is none (then the request is an API request).
    std::string_view virtual_host_of(std::string_view host_header) const;

private:
    struct Entry {
        std::vector<std::string> segments;  ///< "{name}" for captures, "{name...}" for the rest
        bool rest = false;                  ///< the last segment captures the rest of the path
        std::string host_suffix;            ///< lower-case; empty for API routes
        const RegisteredRoute* route;
    };
    std::vector<Entry> entries_;
    std::vector<std::string> host_suffixes_;
};

}  // namespace loupe
