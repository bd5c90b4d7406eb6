#pragma once
// Claiming a job: the oldest row of a kind this process handles that is `queued` with run_at
// come, or `running` with an expired lease (its instance crashed). The claim marks it running
// under this instance's lease in one transaction: SELECT ... FOR UPDATE SKIP LOCKED then UPDATE
// on PostgreSQL, both inside BEGIN IMMEDIATE on SQLite. jobs.locked_by keeps the instance of the
// last claim; lease_until is set only while a job runs. Leases compare the wall clocks of
// different instances: they must agree to well within jobs.lease_ms.

#include <cstdint>
#include <optional>
#include <string>

#include "jobs/kind_filter.hpp"
#include "loupe/db/database.hpp"
#include "loupe/jobs/job_queue.hpp"

namespace loupe {

struct ClaimedJob {
    Job job;  ///< attempt is the number of this run
    /// Set when the claimed job's lease had expired on its last attempt: the claim marked it
    /// failed with this error instead; run its give-up handler, not the job.
    std::optional<std::string> give_up_error;
};

/// Whether some job is claimable at `now`: one read, no transaction, so idle workers do not
/// take the write lock. False without a query when `kinds` is empty.
bool has_claimable_job(Database& database, const KindFilter& kinds, int64_t now);

/// Claims the oldest claimable job for `instance` with a lease of `lease_ms`; nullopt when
/// another worker took it first or nothing is claimable.
std::optional<ClaimedJob> claim_job(Database& database, const KindFilter& kinds,
                                    const std::string& instance, int64_t lease_ms);

}  // namespace loupe
