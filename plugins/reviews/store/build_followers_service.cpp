#include "store/build_followers_service.hpp"

#include "store/subscriptions.hpp"

namespace loupe::reviews {

std::vector<int64_t> BuildFollowersService::followers(soci::session& session, int64_t build_id) {
    return build_followers(session, build_id);
}

}  // namespace loupe::reviews
