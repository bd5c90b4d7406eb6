#pragma once
// `git_commit_statuses`: one row per build whose commit status Loupe pushes, an outbox row (see
// store/push_outbox.hpp) that also keeps what was last pushed.

#include <soci/soci.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "store/push_outbox.hpp"

namespace loupe::git {

/// Notes a new state to push; returns its sequence number (1, 2, ...).
int64_t request_push(soci::session& session, int64_t build_id, int64_t project_id, int64_t now);

/// Claims the push of `seq` for `lease_ms`, unless it is already pushed (superseded) or another
/// push holds the row (busy).
Claim claim_push(soci::session& session, int64_t build_id, int64_t seq, int64_t now,
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

/// Records a successful push of the claimed state and releases the row.
void record_pushed(soci::session& session, int64_t build_id, int64_t claimed_seq,
                   const PushedStatus& status, int64_t now);
/// Releases the row with nothing sent (unchanged, or no longer linked), the claim covered.
void mark_covered(soci::session& session, int64_t build_id, int64_t claimed_seq, int64_t now);
/// Releases the row after a failed attempt, keeping the error.
void release_push(soci::session& session, int64_t build_id, const std::string& error, int64_t now);
/// Records that pushing gave up for good (the job failed its last attempt).
void record_push_failed(soci::session& session, int64_t build_id, const std::string& error,
                        int64_t now);

/// Forgets the statuses of builds retention deleted; returns how many rows went.
int64_t delete_statuses_of_builds(soci::session& session, const std::vector<int64_t>& build_ids);

}  // namespace loupe::git
