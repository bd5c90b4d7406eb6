#include "review_facts.hpp"

namespace loupe::reviews {

ReviewFacts load_review_facts(soci::session& session, Identity& identity,
                              const std::vector<Review>& reviews) {
    ReviewFacts facts;
    std::vector<int64_t> ids;
    for (const auto& review : reviews) {
        ids.push_back(review.id);
        for (const auto& user : {review.user_id, review.dismissed_by}) {
            if (user && !facts.users.contains(*user)) {
                facts.users[*user] = identity.user_ref(*user);
            }
        }
    }
    for (auto& [review_id, decision] : snapshot_decisions(session, ids)) {
        facts.decisions[review_id].push_back(decision);
    }
    return facts;
}

Json reviews_json(soci::session& session, Identity& identity, const std::vector<Review>& reviews) {
    const auto facts = load_review_facts(session, identity, reviews);
    Json out = Json::array();
    for (const auto& review : reviews) {
        out.push_back(review_json(review, facts));
    }
    return out;
}

}  // namespace loupe::reviews
