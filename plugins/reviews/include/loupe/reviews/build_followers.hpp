#pragma once
// Who follows a build (commented on or reviewed it, asked for its review, or subscribed, and
// did not unsubscribe), for plugins that tell them what happens to it. Look it up at install
// time with `host.services().find<loupe::reviews::BuildFollowers>()` (nullptr without the
// reviews plugin) and declare LOUPE_REQUIRES("reviews").
// OWNERSHIP: owned by the reviews plugin for the process lifetime. THREADS: thread-safe.
// VERSIONING: a new method is a minor change; a changed signature bumps service_version.

#include <cstdint>
#include <vector>

namespace soci {
class session;
}

namespace loupe::reviews {

class BuildFollowers {
public:
    static constexpr const char* service_name = "reviews.BuildFollowers";
    static constexpr int service_version = 1;

    virtual ~BuildFollowers() = default;
    /// The users following the build, read in the caller's session.
    virtual std::vector<int64_t> followers(soci::session& session, int64_t build_id) = 0;
};

}  // namespace loupe::reviews
