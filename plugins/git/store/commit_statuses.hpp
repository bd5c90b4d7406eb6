#pragma once
// `git_commit_statuses`: one row per linked build whose commit status Loupe pushes, holding
// what was last pushed and the claim of the push under way. A push claims the row with a short
// lease (so two pushes for one build never run at once), renders the build as it reads *after*
// the claim, sends it unless it is exactly what was last pushed, and records it: whatever order
// the pushes run in, the build's latest state is the one the provider ends up showing, and each
// state is sent once.

#include <soci/soci.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace loupe::git {

enum class ClaimResult { claimed, busy };

struct Claim {
    ClaimResult result = ClaimResult::claimed;
    int64_t lease_until = 0;  ///< busy: when the other push's lease ends
};

/// Claims the push of `build_id` for `lease_ms` (creating its row), unless another push holds
/// it (busy).
Claim claim_push(soci::session& session, int64_t build_id, int64_t project_id, int64_t now,
                 int64_t lease_ms);

struct PushedStatus {
    std::string provider;
    std::string sha;
    std::string state;
    std::string description;
    std::string context;
};

/// What was last pushed for the build, if anything.
std::optional<PushedStatus> last_pushed(soci::session& session, int64_t build_id);

/// Records a successful push and releases the row.
void record_pushed(soci::session& session, int64_t build_id, const PushedStatus& status,
                   int64_t now);
/// Releases the row with nothing sent (unchanged, or no longer linked).
void release_push(soci::session& session, int64_t build_id, int64_t now);
/// Releases the row after a failed attempt, keeping the error.
void release_failed_push(soci::session& session, int64_t build_id, const std::string& error,
                         int64_t now);
/// Records that pushing gave up for good (the job failed its last attempt).
void record_push_failed(soci::session& session, int64_t build_id, const std::string& error,
                        int64_t now);

/// Forgets the statuses of builds retention deleted; returns how many rows went.
int64_t delete_statuses_of_builds(soci::session& session, const std::vector<int64_t>& build_ids);

}  // namespace loupe::git
