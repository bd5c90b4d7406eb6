#pragma once
// Runs one claimed job and records how it ended.

#include <optional>
#include <string>

#include "jobs/job_kinds.hpp"
#include "jobs/job_metrics.hpp"
#include "jobs/job_settings.hpp"
#include "loupe/db/database.hpp"
#include "loupe/log/logger.hpp"

namespace loupe {

class JobRunner {
public:
    /// `metrics` may be null (no figures kept).
    JobRunner(Database& database, const JobKindTable& kinds, const JobSettings& settings,
              Logger& log, const std::string& instance_id, JobMetrics* metrics = nullptr);

    /// Calls the kind's handler outside any transaction, then marks the job done, queues it
    /// again after the backoff, or marks it failed and calls the give-up handler; a handler
    /// that throws JobDeferred gets its job back after the delay it asked for, the attempt not
    /// counted. Never throws:
    /// a failure to record the outcome is logged, and the job is claimed again once its lease
    /// expires.
    void run(const Job& job);

    /// Calls the kind's give-up handler, if any, with the last error; its exceptions are
    /// logged. At most once per failure: a crash before it runs loses the call.
    void give_up(const Job& job, const std::string& error);

private:
    void record(const Job& job, const std::optional<std::string>& error, int64_t elapsed_ms);
    void defer(const Job& job, int64_t delay_ms, const std::string& reason);
    void lease_lost(const Job& job);

    Database& database_;
    const JobKindTable& kinds_;
    const JobSettings& settings_;
    Logger& log_;
    const std::string& instance_id_;
    JobMetrics* metrics_;
};

}  // namespace loupe
