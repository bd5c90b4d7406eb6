#pragma once
// Immutable route table: literal segments and `{param}` captures. A literal segment wins over
// a capture at the same position ("/builds/finalize" before "/builds/{buildId}").

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "loupe/export.hpp"
#include "loupe/http/method.hpp"
#include "plugin/registries.hpp"

namespace loupe {

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
    /// `path` without query string; a leading "/v2" is stripped by the caller.
    /// A trailing slash is ignored. HEAD falls back to the GET route of the same path, and
    /// `allowed` is filled whenever the path exists (HEAD listed wherever GET is).
    RouteMatch match(Method method, std::string_view path) const;

private:
    struct Entry {
        std::vector<std::string> segments;  ///< "{name}" for captures
        const RegisteredRoute* route;
    };
    std::vector<Entry> entries_;
};

}  // namespace loupe
