#pragma once
// Housekeeping one worker does now and then: dropping old 'done' rows, and finding queued jobs
// no handler of this process will ever claim (their plugin is disabled here).

#include <cstdint>
#include <string>
#include <vector>

#include "jobs/kind_filter.hpp"
#include "loupe/db/database.hpp"

namespace loupe {

/// Deletes 'done' jobs last updated before `cutoff`; returns how many.
int64_t purge_done_jobs(Database& database, int64_t cutoff);

/// The distinct kinds of queued jobs outside `handled`.
std::vector<std::string> unhandled_queued_kinds(Database& database, const KindFilter& handled);

}  // namespace loupe
