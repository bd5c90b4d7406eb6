#include "jobs/job_runner.hpp"

#include <algorithm>
#include <optional>
#include <stdexcept>

#include "jobs/job_outcomes.hpp"

namespace loupe {

JobRunner::JobRunner(Database& database, const JobKindTable& kinds, const JobSettings& settings,
                     Logger& log, const std::string& instance_id, JobMetrics* metrics)
    : database_(database),
      kinds_(kinds),
      settings_(settings),
      log_(log),
      instance_id_(instance_id),
      metrics_(metrics) {}

void JobRunner::run(const Job& job) {
    log_.debug("job.started", {{"kind", job.kind},
                               {"id", std::to_string(job.id)},
                               {"attempt", std::to_string(job.attempt)},
                               {"max_attempts", std::to_string(job.max_attempts)}});
    const int64_t started = now_ms();
    std::optional<std::string> error;
    std::optional<int64_t> deferred_ms;
    // The job dispatcher: whatever a plugin's handler throws fails (or defers) this attempt,
    // never the worker thread.
    try {
        const auto kind = kinds_.find(job.kind);
        if (kind == kinds_.end()) {
            throw std::logic_error("no handler for job kind '" + job.kind + "'");
        }
        if (job.payload.is_discarded()) {
            throw std::runtime_error("the job's payload is not valid JSON");
        }
        kind->second.run(job);
    } catch (const JobDeferred& deferral) {
        deferred_ms = std::max<int64_t>(0, deferral.delay_ms());
        error = deferral.what();
    } catch (const std::exception& failure) {
        error = failure.what();
    } catch (...) {
        error = "unknown exception";
    }
    const int64_t elapsed_ms = now_ms() - started;
    try {
        if (deferred_ms) {
            defer(job, *deferred_ms, *error);
            return;
        }
        if (metrics_ != nullptr) {
            const double seconds = static_cast<double>(elapsed_ms) / 1000.0;
            if (error) {
                metrics_->attempt_failed(job.kind, seconds, job.attempt >= job.max_attempts);
            } else {
                metrics_->succeeded(job.kind, seconds);
            }
        }
        record(job, error, elapsed_ms);
    } catch (const std::exception& failure) {
        log_.error("job.record_failed", {{"kind", job.kind},
                                         {"id", std::to_string(job.id)},
                                         {"attempt", std::to_string(job.attempt)},
                                         {"error", failure.what()}});
    }
}

void JobRunner::defer(const Job& job, int64_t delay_ms, const std::string& reason) {
    if (!release_job(database_, job.id, instance_id_, now_ms() + delay_ms)) {
        return lease_lost(job);
    }
    if (metrics_ != nullptr) {
        metrics_->released(job.kind);
    }
    log_.debug("job.deferred", {{"kind", job.kind},
                                {"id", std::to_string(job.id)},
                                {"retry_in_ms", std::to_string(delay_ms)},
                                {"reason", reason}});
}

void JobRunner::record(const Job& job, const std::optional<std::string>& error,
                       int64_t elapsed_ms) {
    if (!error) {
        if (!mark_job_done(database_, job.id, instance_id_)) {
            return lease_lost(job);
        }
        log_.debug("job.done", {{"kind", job.kind},
                                {"id", std::to_string(job.id)},
                                {"attempt", std::to_string(job.attempt)},
                                {"ms", std::to_string(elapsed_ms)}});
        return;
    }
    if (job.attempt < job.max_attempts) {
        const int64_t delay = settings_.retry_delay_ms(job.attempt);
        if (!requeue_job(database_, job.id, instance_id_, now_ms() + delay, *error)) {
            return lease_lost(job);
        }
        log_.warn("job.attempt_failed", {{"kind", job.kind},
                                         {"id", std::to_string(job.id)},
                                         {"attempt", std::to_string(job.attempt)},
                                         {"max_attempts", std::to_string(job.max_attempts)},
                                         {"retry_in_ms", std::to_string(delay)},
                                         {"error", *error}});
        return;
    }
    if (!mark_job_failed(database_, job.id, instance_id_, *error)) {
        return lease_lost(job);
    }
    give_up(job, *error);
}

void JobRunner::give_up(const Job& job, const std::string& error) {
    log_.warn("job.failed", {{"kind", job.kind},
                             {"id", std::to_string(job.id)},
                             {"attempt", std::to_string(job.attempt)},
                             {"max_attempts", std::to_string(job.max_attempts)},
                             {"error", error}});
    const auto kind = kinds_.find(job.kind);
    if (kind == kinds_.end() || !kind->second.on_give_up) {
        return;
    }
    try {
        kind->second.on_give_up(job, error);
    } catch (const std::exception& failure) {
        log_.error("job.give_up_failed",
                   {{"kind", job.kind}, {"id", std::to_string(job.id)}, {"error", failure.what()}});
    } catch (...) {
        log_.error(
            "job.give_up_failed",
            {{"kind", job.kind}, {"id", std::to_string(job.id)}, {"error", "unknown exception"}});
    }
}

void JobRunner::lease_lost(const Job& job) {
    log_.warn("job.lease_lost", {{"kind", job.kind},
                                 {"id", std::to_string(job.id)},
                                 {"attempt", std::to_string(job.attempt)},
                                 {"instance", instance_id_}});
}

}  // namespace loupe
