#include "review_recorder.hpp"

#include "review_state.hpp"

namespace loupe::reviews {
namespace {

// When every approval that counts was carried forward from an earlier build, the build says
// which build and reviews it inherits.
Json inheritance_details(soci::session& session, builds::BuildsService& builds,
                         const std::vector<Review>& reviews) {
    Json inherited_reviews = Json::array();
    std::optional<int64_t> from_build;
    for (const auto* review : counting_reviews(reviews)) {
        if (review->state != "approved") {
            continue;
        }
        if (!review->inherited_from) {
            return nullptr;
        }
        auto source = find_review(session, *review->inherited_from);
        if (!source) {
            return nullptr;
        }
        from_build = source->build_id;
        inherited_reviews.push_back(std::to_string(source->id));
    }
    if (!from_build) {
        return nullptr;
    }
    auto build = builds.find_build_by_id(session, *from_build);
    return Json{{"automatic", true},
                {"inheritedFrom",
                 {{"buildId", std::to_string(*from_build)},
                  {"buildNumber", build ? Json(build->number) : Json()},
                  {"reviewIds", inherited_reviews}}}};
}

}  // namespace

void record_build_review_state(soci::session& session, builds::BuildsService& builds,
                               int64_t build_id) {
    const auto reviews = build_reviews(session, build_id);
    builds::ReviewState state;
    state.state = review_state(reviews);
    if (state.state == "accepted") {
        state.details = inheritance_details(session, builds, reviews);
    }
    builds.record_review_state(session, build_id, state);
}

}  // namespace loupe::reviews
