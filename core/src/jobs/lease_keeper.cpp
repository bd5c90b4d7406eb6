#include "jobs/lease_keeper.hpp"

#include <vector>

#include "jobs/job_outcomes.hpp"
#include "loupe/json.hpp"

namespace loupe {

LeaseKeeper::LeaseKeeper(Database& database, const JobSettings& settings, Logger& log,
                         const std::string& instance_id)
    : database_(database), settings_(settings), log_(log), instance_id_(instance_id) {}

LeaseKeeper::~LeaseKeeper() {
    stop();
}

void LeaseKeeper::start() {
    thread_ = std::thread([this] { beat(); });
}

void LeaseKeeper::stop() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) {
        thread_.join();
    }
}

void LeaseKeeper::hold(int64_t id) {
    std::lock_guard lock(mutex_);
    held_.insert(id);
}

void LeaseKeeper::release(int64_t id) {
    std::lock_guard lock(mutex_);
    held_.erase(id);
}

void LeaseKeeper::beat() {
    const auto period = std::chrono::milliseconds(settings_.heartbeat_ms());
    std::unique_lock lock(mutex_);
    while (!wake_.wait_for(lock, period, [&] { return stopping_; })) {
        if (held_.empty()) {
            continue;
        }
        const std::vector<int64_t> ids(held_.begin(), held_.end());
        lock.unlock();
        try {
            extend_leases(database_, ids, instance_id_, now_ms() + settings_.lease_ms);
        } catch (const std::exception& error) {
            log_.warn("job.heartbeat_failed",
                      {{"jobs", std::to_string(ids.size())}, {"error", error.what()}});
        }
        lock.lock();
    }
}

}  // namespace loupe
