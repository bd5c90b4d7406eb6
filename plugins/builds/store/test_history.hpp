#pragma once
// A test's diffs across builds, newest build first: what its page shows as its history.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace soci {
class session;
}

namespace loupe::builds {

/// The ids of the test's diffs, by build number descending, at most `limit`; only the builds of
/// `branch` when it is set.
std::vector<int64_t> test_history_diff_ids(soci::session& session, int64_t test_id,
                                           const std::optional<std::string>& branch, int64_t limit);

}  // namespace loupe::builds
