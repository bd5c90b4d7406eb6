#pragma once
// Loads what review_json needs for a batch of reviews: their users and snapshot decisions.

#include <vector>

#include "loupe/auth/identity.hpp"
#include "review_json.hpp"

namespace soci {
class session;
}

namespace loupe::reviews {

ReviewFacts load_review_facts(soci::session& session, Identity& identity,
                              const std::vector<Review>& reviews);

/// The resources of `reviews`, in order.
Json reviews_json(soci::session& session, Identity& identity, const std::vector<Review>& reviews);

}  // namespace loupe::reviews
