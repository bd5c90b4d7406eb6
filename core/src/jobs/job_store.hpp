#pragma once
// The jobs table (created by the core migration track): enqueue inside the caller's
// transaction.

#include <cstdint>
#include <string>

#include "loupe/export.hpp"
#include "loupe/jobs/job_queue.hpp"

namespace loupe {

LOUPE_API int64_t enqueue_job(soci::session& session, const std::string& kind, const Json& payload,
                              const JobOptions& options);

}  // namespace loupe
