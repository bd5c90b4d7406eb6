#pragma once
// The reviews plugin's reviews::BuildFollowers: the build subscriptions it keeps.

#include "loupe/reviews/build_followers.hpp"

namespace loupe::reviews {

class BuildFollowersService final : public BuildFollowers {
public:
    std::vector<int64_t> followers(soci::session& session, int64_t build_id) override;
};

}  // namespace loupe::reviews
