#pragma once
// The BuildReview resource: {id, buildId, state, user, dismissedAt, dismissedBy, date} plus
// Loupe's `snapshots` (per-snapshot decisions), `automatic` and `inheritedFrom`.

#include <map>
#include <vector>

#include "loupe/json.hpp"
#include "store/reviews.hpp"

namespace loupe::reviews {

/// What rendering needs besides the review rows, loaded by the caller.
struct ReviewFacts {
    std::map<int64_t, Json> users;                               ///< user id → {id, slug, name}
    std::map<int64_t, std::vector<SnapshotDecision>> decisions;  ///< by review id
};

Json review_json(const Review& review, const ReviewFacts& facts);

}  // namespace loupe::reviews
