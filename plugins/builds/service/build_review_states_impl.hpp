#pragma once
// The BuildReviewStates service: the reviews plugin's decision written on the build row.

#include "loupe/builds/build_review_states.hpp"

namespace loupe::builds {

class BuildReviewStatesImpl final : public BuildReviewStates {
public:
    ReviewStateChange set(soci::session& session, int64_t build_id,
                          const BuildReview& review) override;
};

}  // namespace loupe::builds
