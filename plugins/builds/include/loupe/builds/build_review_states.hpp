#pragma once
// Where the plugin that records reviews (reviews) sets the review state it decides for a build.
// Reviews owns the decision: it computes it from the reviews it keeps and announces its changes
// (event build.review_state_changed, loupe/reviews/events.hpp). Builds keeps the state on the
// build row because the build's status, its choice of baselines (an accepted check is one, a
// rejected build never is) and the activity counts read it in SQL. Setting it is the one write
// another plugin makes on a build, synchronous in the reviewer's transaction so that the API
// answers the new status as soon as the review is saved.
//
// Look it up at install time: `host.services().require<BuildReviewStates>()`.
// OWNERSHIP: owned by the builds plugin for the process lifetime. THREADS: thread-safe.

#include <cstdint>
#include <optional>

#include "loupe/builds/build_states.hpp"
#include "loupe/builds/builds_service.hpp"
#include "loupe/json.hpp"

namespace soci {
class session;
}

namespace loupe::builds {

/// A build's review state as builds keeps it: the verdict, or none, and `details` (a JSON
/// object or null) shown in the Build resource's `review` field (for example the earlier
/// review an automatic approval inherits).
struct BuildReview {
    std::optional<ReviewState> state;
    Json details;

    bool operator==(const BuildReview&) const = default;
};

/// What set() changed.
struct ReviewStateChange {
    BuildReview before;
    BuildSummary build;  ///< the build as it reads with the new state

    bool state_changed() const { return before.state != build.review_state; }
};

class BuildReviewStates {
public:
    static constexpr const char* service_name = "builds.BuildReviewStates";
    static constexpr int service_version = 1;

    virtual ~BuildReviewStates() = default;

    /// Sets the review state of `build_id`, whose row the caller locked
    /// (BuildsService::lock_build) in this transaction. Throws std::runtime_error when there
    /// is no such build.
    virtual ReviewStateChange set(soci::session& session, int64_t build_id,
                                  const BuildReview& review) = 0;
};

}  // namespace loupe::builds
