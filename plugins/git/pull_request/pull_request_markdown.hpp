#pragma once
// What Loupe writes in a pull request, from the builds of its head commit (the newest build of
// each project and build name), as Argos writes it:
//   - the comment: a header, then one table row per build, sorted: `| **name** ([Inspect](url))
//     | status label[ ([Review](url)) when changes wait for a review] | changes | updated (UTC) |`;
//     the name is `project/build` when the builds come from several projects;
//   - the summary check: every build folded into one state (queued, in progress, then changes
//     detected, rejected, accepted, no changes; a failed build fails it), the same table as its
//     summary.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "loupe/json.hpp"

namespace loupe::git {

struct ListedBuild {
    std::string project_name;
    std::string build_name;
    std::string status;               ///< as the Build resource reads (pending, accepted, ...)
    std::optional<std::string> type;  ///< reference | check | orphan | skipped
    Json stats;                       ///< {"changed", "added", ...} or null
    bool subset = false;
    std::string url;         ///< the build's page
    int64_t updated_at = 0;  ///< epoch milliseconds
};

inline constexpr const char* comment_header = "**The latest updates on your projects.**";

/// The status label of a build ("⚠️ Changes detected", "👍 Approved", ...).
std::string build_label(const ListedBuild& build);
/// "40 changed, 20 added, 10 removed, 5 failures" (removed not counted on subset builds).
std::string changes_text(const Json& stats, bool subset);
/// "Nov 28, 2026, 9:05 AM" in UTC.
std::string updated_text(int64_t epoch_ms);

std::string pull_request_comment(const std::vector<ListedBuild>& builds);

/// A GitHub check run's state: `status` queued | in_progress | completed, `conclusion` when
/// completed (success | failure | action_required).
struct SummaryCheckState {
    std::string status;
    std::optional<std::string> conclusion;
    std::string title;
    std::string summary;
};
inline constexpr const char* summary_check_name = "argos/summary";

SummaryCheckState summary_check_state(const std::vector<ListedBuild>& builds);

}  // namespace loupe::git
