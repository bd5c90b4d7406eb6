#pragma once
// A build's review state from its reviews: each user's latest review counts, whatever its state
// (a later comment or draft cancels an earlier verdict); dismissed ones count for nothing; one
// rejection wins over any approval.

#include <optional>
#include <string>
#include <vector>

#include "loupe/builds/build_states.hpp"
#include "loupe/json.hpp"
#include "store/reviews.hpp"

namespace loupe::reviews {

/// The reviews that count: each user's latest (creation time, then id), undismissed.
std::vector<const Review*> counting_reviews(const std::vector<Review>& reviews);

/// accepted | rejected | none.
std::optional<builds::ReviewState> review_state(const std::vector<Review>& reviews);

}  // namespace loupe::reviews
