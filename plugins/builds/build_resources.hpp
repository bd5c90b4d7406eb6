#pragma once
// Build resources for a batch of builds: what rendering needs besides the rows (baselines, failed
// diffs) is read once for the whole batch, then each build is rendered without a query.

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "build_json.hpp"

namespace soci {
class session;
}

namespace loupe::builds {

std::vector<Json> render_builds(soci::session& session, const std::vector<Build>& builds,
                                const Project& project, const std::string& public_url);
Json render_build(soci::session& session, const Build& build, const Project& project,
                  const std::string& public_url);

/// The inputs of aggregated_status for a build, given which builds have a failed diff.
StatusInputs status_inputs(const Build& build, const std::set<int64_t>& builds_with_failed_diff,
                           int64_t now);

/// The builds (of the batch) whose status depends on a failed diff: complete, not concluded.
std::vector<int64_t> builds_awaiting_diffs(const std::vector<Build>& builds);

}  // namespace loupe::builds
