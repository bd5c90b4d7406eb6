#pragma once
// The job figures of one process: how its workers' runs ended, by kind (counters, updated
// without locks), and the shared queue's depth and age, read from the database at scrape time
// (every instance reports the same queue).

#include <map>
#include <string>
#include <vector>

#include "loupe/db/database.hpp"
#include "loupe/metrics/metrics.hpp"
#include "metrics/exposition.hpp"

namespace loupe {

class JobMetrics {
public:
    /// Registers the series of every kind in `kinds` in `registry`.
    JobMetrics(metrics::Metrics& registry, const std::vector<std::string>& kinds);

    void succeeded(const std::string& kind, double seconds) noexcept;
    /// An attempt failed; `gave_up`: it was the last one (the job is failed for good).
    void attempt_failed(const std::string& kind, double seconds, bool gave_up) noexcept;
    /// A job failed for good without running (its lease expired on its last attempt).
    void gave_up(const std::string& kind) noexcept;
    /// A running job was handed back to the queue at shutdown.
    void released(const std::string& kind) noexcept;

private:
    struct Kind {
        metrics::Counter* succeeded;
        metrics::Counter* failed_attempts;
        metrics::Counter* given_up;
        metrics::Counter* released;
        metrics::Histogram* duration;
    };
    const Kind* find(const std::string& kind) const noexcept;
    std::map<std::string, Kind> kinds_;  ///< immutable after construction: read without locks
};

/// The families job_queue_collector() writes.
std::vector<std::string> job_queue_family_names();

/// Writes loupe_jobs_queued, loupe_jobs_running and loupe_jobs_oldest_queued_age_seconds by kind
/// (every kind in `kinds`, and any other kind found queued or running) with one grouped query.
void collect_job_queue(Database& database, const std::vector<std::string>& kinds,
                       metrics::Exposition& out);

}  // namespace loupe
