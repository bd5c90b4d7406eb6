#pragma once
// The reviews plugin's rows about builds that retention deletes: reviews with their snapshot
// decisions, comments with their reactions and thread subscriptions, build subscriptions.

#include <cstdint>
#include <vector>

#include "loupe/builds/build_deletion.hpp"

namespace loupe::reviews {

/// Deletes every row of the builds; returns the counts ("reviews", "comments", ...).
builds::DeletedRows delete_rows_of_builds(soci::session& session,
                                          const std::vector<int64_t>& build_ids);

}  // namespace loupe::reviews
