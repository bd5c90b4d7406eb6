#include "jobs/job_store.hpp"

#include <soci/soci.h>

namespace loupe {

JobQueue::~JobQueue() = default;
JobDeferred::~JobDeferred() = default;

int64_t enqueue_job(soci::session& session, const std::string& kind, const Json& payload,
                    const JobOptions& options) {
    const int64_t now = now_ms();
    const int64_t run_at = now + options.delay_ms;
    const std::string body = payload.dump();
    int64_t id = 0;
    session << "INSERT INTO jobs (kind, payload, status, attempts, max_attempts, run_at, "
               "created_at, updated_at) VALUES (:kind, :payload, 'queued', 0, :max, :run_at, "
               ":now, :now2) RETURNING id",
        soci::use(kind), soci::use(body), soci::use(options.max_attempts), soci::use(run_at),
        soci::use(now), soci::use(now), soci::into(id);
    return id;
}

}  // namespace loupe
