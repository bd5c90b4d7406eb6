#pragma once
// The build status clients see (aggregated from the stored job status and conclusion) and the
// commit-status notification derived from it. Pure functions of the stored state.

#include <cstdint>
#include <optional>
#include <string>

#include "loupe/json.hpp"
#include "store/build.hpp"

namespace loupe::builds {

struct StatusInputs {
    /// True when a diff job of a complete, unconcluded build failed for good.
    bool diff_job_failed = false;
    int64_t now_ms = 0;
};

/// A pending build older than two hours reads expired; a changes-detected build reads its
/// review state (accepted | rejected) when it has one.
BuildStatus aggregated_status(const Build& build, const StatusInputs& inputs);

/// "2 changed, 1 added" from stats (removed omitted for subset builds); "" when nothing.
std::string stats_message(const Json& stats, bool subset);

/// The notification object, or null for expired/error/aborted builds.
Json notification_json(const Build& build, BuildStatus status, const std::string& url);

/// Every stats key present, missing ones as 0; null when not concluded.
Json stats_json(const Json& stats);

}  // namespace loupe::builds
