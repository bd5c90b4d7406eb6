#pragma once
// The job workers of one process (`loupe serve`): `settings.workers` threads that claim jobs of
// the kinds in `kinds` from the jobs table, shared with every other instance on the database,
// and run them (job_runner.hpp); one heartbeat thread keeps their leases (lease_keeper.hpp).
// An idle worker waits on `signal` (enqueue in this process) or `poll_ms`, whichever is first.
// At shutdown, drain() lets running jobs finish for a while, then hands the rest back to the
// queue so that another instance (or the next start) claims them at once, not when their lease
// runs out.
// THREADS: start(), drain() and stop() from one thread.

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "jobs/instance_id.hpp"
#include "jobs/job_kinds.hpp"
#include "jobs/job_metrics.hpp"
#include "jobs/job_runner.hpp"
#include "jobs/job_settings.hpp"
#include "jobs/job_signal.hpp"
#include "jobs/kind_filter.hpp"
#include "jobs/lease_keeper.hpp"
#include "loupe/db/database.hpp"
#include "loupe/export.hpp"
#include "loupe/log/logger.hpp"

namespace loupe {

class LOUPE_API JobWorkers {
public:
    /// `metrics` may be null (no figures kept).
    JobWorkers(Database& database, JobKindTable kinds, JobSettings settings, Logger& log,
               JobSignal& signal, std::string instance_id = new_instance_id(),
               JobMetrics* metrics = nullptr);
    ~JobWorkers();
    JobWorkers(const JobWorkers&) = delete;
    JobWorkers& operator=(const JobWorkers&) = delete;

    void start();
    /// Idle workers leave at once, busy ones after their current job; then the heartbeat
    /// stops. Idempotent; the destructor calls it.
    void stop();
    /// Stops claiming jobs; the busy workers finish their current one.
    void stop_claiming();
    /// Like stop(), but waits for the busy workers only until `deadline`: the jobs still
    /// running then are handed back to the queue (claimable at once; the interrupted attempt
    /// does not count) and their threads are left running. Returns how many threads were left
    /// running: when it is not 0, neither the workers nor what their handlers use may be
    /// destroyed any more (end the process with std::_Exit).
    std::size_t drain(std::chrono::steady_clock::time_point deadline);

    /// jobs.locked_by of the jobs this pool claims.
    const std::string& instance_id() const { return instance_id_; }

private:
    void work();
    void run_claimed(const Job& job);
    void hand_back(const std::map<int64_t, std::string>& jobs);
    /// How long an idle worker waits: poll_ms, growing while claims keep failing.
    int64_t idle_wait_ms(int failures) const;
    /// Purges old done jobs and reports unhandled kinds, once per maintenance interval, on
    /// whichever worker comes first.
    void maintain_if_due();

    Database& database_;
    const JobKindTable kinds_;
    const JobSettings settings_;
    Logger& log_;
    JobSignal& signal_;
    const std::string instance_id_;
    const KindFilter filter_;
    JobMetrics* metrics_;
    JobRunner runner_;
    LeaseKeeper leases_;
    std::atomic<bool> stopping_{false};
    bool stopped_ = false;
    std::mutex running_mutex_;
    std::condition_variable running_changed_;
    std::map<int64_t, std::string> running_;  ///< job id → kind, the jobs being run now
    int active_threads_ = 0;
    std::atomic<int64_t> next_maintenance_ms_{0};
    std::mutex maintenance_mutex_;
    std::set<std::string> reported_kinds_;
    std::vector<std::thread> threads_;
};

}  // namespace loupe
