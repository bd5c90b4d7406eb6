#pragma once
// Recording how a run ended, and keeping running jobs' leases alive. Every write is guarded by
// `status = 'running' AND locked_by = <instance>`: a job whose lease this instance lost (and
// that another instance may be running) is never overwritten; the functions then return false.

#include <cstdint>
#include <string>
#include <vector>

#include "loupe/db/database.hpp"

namespace loupe {

/// Success: 'done', lease cleared.
bool mark_job_done(Database& database, int64_t id, const std::string& instance);
/// A failed attempt with attempts left: 'queued' again from `run_at`, with the error.
bool requeue_job(Database& database, int64_t id, const std::string& instance, int64_t run_at,
                 const std::string& error);
/// The last attempt failed: 'failed' with the error.
bool mark_job_failed(Database& database, int64_t id, const std::string& instance,
                     const std::string& error);
/// Hands a running job back to the queue, claimable from `run_at` by any instance; the
/// interrupted (or deferred) attempt does not count.
bool release_job(Database& database, int64_t id, const std::string& instance, int64_t run_at);
/// Moves the lease of those of `ids` this instance still runs to `lease_until`.
void extend_leases(Database& database, const std::vector<int64_t>& ids, const std::string& instance,
                   int64_t lease_until);

}  // namespace loupe
