#include "review_json.hpp"

namespace loupe::reviews {
namespace {

Json user_or_null(const ReviewFacts& facts, const std::optional<int64_t>& user_id) {
    if (!user_id) {
        return nullptr;
    }
    auto it = facts.users.find(*user_id);
    return it == facts.users.end() ? Json(nullptr) : it->second;
}

}  // namespace

Json review_json(const Review& review, const ReviewFacts& facts) {
    Json snapshots = Json::array();
    if (auto it = facts.decisions.find(review.id); it != facts.decisions.end()) {
        for (const auto& decision : it->second) {
            snapshots.push_back(
                {{"id", std::to_string(decision.diff_id)},
                 {"conclusion",
                  decision.conclusion == "approved" ? "APPROVE" : "REQUEST_CHANGES"}});
        }
    }
    return Json{
        {"id", std::to_string(review.id)},
        {"buildId", std::to_string(review.build_id)},
        {"state", review.state},
        {"user", user_or_null(facts, review.user_id)},
        {"dismissedAt", review.dismissed_at ? Json(iso_time(*review.dismissed_at)) : Json()},
        {"dismissedBy", user_or_null(facts, review.dismissed_by)},
        {"date", iso_time(review.created_at)},
        {"snapshots", snapshots},
        {"automatic", review.inherited_from.has_value()},
        {"inheritedFrom",
         review.inherited_from ? Json(std::to_string(*review.inherited_from)) : Json()}};
}

}  // namespace loupe::reviews
