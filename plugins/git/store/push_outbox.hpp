#pragma once
// The outbox the git plugin pushes to providers from: each row is one thing a provider shows (a
// build's commit status, a pull request's comment or summary check). Every change bumps the
// row's `wanted_seq` in the transaction that made it and queues a job; the job claims the row
// with a short lease (so two pushes of one row never run at once), renders what it now reads
// *after* the claim, pushes it and records `pushed_seq`. A job whose sequence is already pushed
// has nothing left to do: the latest state always wins, whatever order the jobs run in, and a
// restart resumes from the rows (the jobs are durable).
//
// The tables share these columns: wanted_seq, claimed_seq, pushed_seq, lease_until, last_error,
// failed_at, updated_at; `key` names their primary key (a BIGINT).

#include <soci/soci.h>

#include <cstdint>
#include <string>

namespace loupe::git {

struct OutboxTable {
    const char* table;
    const char* key;
};

inline constexpr OutboxTable commit_status_outbox{"git_commit_statuses", "build_id"};
inline constexpr OutboxTable pull_request_outbox{"git_pull_request_posts", "id"};

enum class ClaimResult { claimed, superseded, busy };

struct Claim {
    ClaimResult result = ClaimResult::superseded;
    int64_t claimed_seq = 0;  ///< claimed: every request up to this one is covered
    int64_t lease_until = 0;  ///< busy: when the other push's lease ends
};

/// Claims the push of `seq` for `lease_ms`, unless it is already pushed (superseded) or another
/// push holds the row (busy).
Claim claim_outbox_row(soci::session& session, const OutboxTable& table, int64_t key, int64_t seq,
                       int64_t now, int64_t lease_ms);
/// Releases the row with the claim covered (pushed, or nothing left to send).
void mark_outbox_covered(soci::session& session, const OutboxTable& table, int64_t key,
                         int64_t claimed_seq, int64_t now);
/// Releases the row after a failed attempt, keeping the error.
void release_outbox_row(soci::session& session, const OutboxTable& table, int64_t key,
                        const std::string& error, int64_t now);
/// Records that pushing gave up for good (the job failed its last attempt).
void record_outbox_failed(soci::session& session, const OutboxTable& table, int64_t key,
                          const std::string& error, int64_t now);

}  // namespace loupe::git
