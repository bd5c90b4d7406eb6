#pragma once
// Completing a build's screenshot set: counts, metadata, validity, and the durable
// `build.process` job, all in the caller's transaction.

#include <vector>

#include "loupe/jobs/job_queue.hpp"
#include "service/build_events.hpp"
#include "store/build.hpp"

namespace loupe::builds {

inline constexpr const char* process_job_kind = "build.process";

/// Marks `build` complete (screenshot count from the database, `metadata` if given, validity
/// from its test report), writes it, enqueues `build.process` and publishes build.finalized.
void finalize_build(soci::session& session, JobQueue& jobs, const BuildEvents& events,
                    Build& build);

/// Argos's aggregation of shard test reports, in shard completion order.
Json aggregate_shard_metadata(const std::vector<Json>& shard_metadata);

/// The aggregated metadata of a parallel build's completed shards.
Json shard_metadata(soci::session& session, int64_t build_id);

}  // namespace loupe::builds
