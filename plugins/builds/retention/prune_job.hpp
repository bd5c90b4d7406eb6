#pragma once
// The recurring retention job ("build.prune"): every `plugins.builds.prune_interval_hours`
// (default 24; 0 turns it off) one instance runs a retention (builds, then blobs). The
// schedule row decides which job may run (see store/prune_schedule.hpp); each run queues the
// next one in the transaction that advances the schedule, and a run that failed for good
// queues the next one too.

#include <cstdint>

#include "loupe/host.hpp"
#include "retention/retention.hpp"

namespace loupe::builds {

inline constexpr const char* prune_job_kind = "build.prune";

/// Registers the job's handler and, once the server is ready, makes sure a run is scheduled.
void add_prune_job(Host& host, Retention& retention, int64_t interval_ms);

}  // namespace loupe::builds
