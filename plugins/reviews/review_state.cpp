#include "review_state.hpp"

#include <map>

namespace loupe::reviews {

std::vector<const Review*> counting_reviews(const std::vector<Review>& reviews) {
    std::map<int64_t, const Review*> latest;
    for (const auto& review : reviews) {
        if (!review.user_id) {
            continue;
        }
        auto& slot = latest[*review.user_id];
        if (slot == nullptr || review.created_at > slot->created_at ||
            (review.created_at == slot->created_at && review.id > slot->id)) {
            slot = &review;
        }
    }
    std::vector<const Review*> counting;
    for (const auto& [user, review] : latest) {
        if (!review->dismissed_at) {
            counting.push_back(review);
        }
    }
    return counting;
}

std::optional<builds::ReviewState> review_state(const std::vector<Review>& reviews) {
    bool approved = false;
    for (const auto* review : counting_reviews(reviews)) {
        if (review->state == "rejected") {
            return builds::ReviewState::rejected;
        }
        approved = approved || review->state == "approved";
    }
    return approved ? std::optional(builds::ReviewState::accepted) : std::nullopt;
}

}  // namespace loupe::reviews
