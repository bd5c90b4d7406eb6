#pragma once
// After any change to a build's reviews, the build's review state is computed again from all of
// them and recorded on the build (through the builds service), in the same transaction.

#include <cstdint>

#include "loupe/builds/builds_service.hpp"

namespace soci {
class session;
}

namespace loupe::reviews {

void record_build_review_state(soci::session& session, builds::BuildsService& builds,
                               int64_t build_id);

}  // namespace loupe::reviews
