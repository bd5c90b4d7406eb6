#include "service/build_review_states_impl.hpp"

#include <stdexcept>
#include <string>

#include "service/build_summary.hpp"
#include "store/build.hpp"

namespace loupe::builds {

ReviewStateChange BuildReviewStatesImpl::set(soci::session& session, int64_t build_id,
                                             const BuildReview& review) {
    auto build = find_build(session, dialect_of(session), build_id);
    if (!build) {
        throw std::runtime_error("no build " + std::to_string(build_id));
    }
    ReviewStateChange change;
    change.before = BuildReview{build->review_state, build->review_details};
    if (change.before != review) {
        update_review_state(session, build_id, review.state, review.details);
        build->review_state = review.state;
        build->review_details = review.details;
    }
    change.build = summarize_builds(session, {*build}).front();
    return change;
}

}  // namespace loupe::builds
