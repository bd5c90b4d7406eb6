#pragma once
// The heartbeat of one worker pool: every third of the lease, extends the leases of the jobs
// the pool is running, so a long job is not claimed again by another instance while it runs.

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <set>
#include <string>
#include <thread>

#include "jobs/job_settings.hpp"
#include "loupe/db/database.hpp"
#include "loupe/log/logger.hpp"

namespace loupe {

class LeaseKeeper {
public:
    LeaseKeeper(Database& database, const JobSettings& settings, Logger& log,
                const std::string& instance_id);
    ~LeaseKeeper();
    LeaseKeeper(const LeaseKeeper&) = delete;
    LeaseKeeper& operator=(const LeaseKeeper&) = delete;

    void start();
    /// Idempotent. Call once no job is held any more.
    void stop();

    /// A worker starts and finishes running a job.
    void hold(int64_t id);
    void release(int64_t id);

private:
    void beat();

    Database& database_;
    const JobSettings& settings_;
    Logger& log_;
    const std::string& instance_id_;
    std::mutex mutex_;
    std::condition_variable wake_;
    std::set<int64_t> held_;
    bool stopping_ = false;
    std::thread thread_;
};

}  // namespace loupe
