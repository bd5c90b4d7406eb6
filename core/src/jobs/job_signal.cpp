#include "jobs/job_signal.hpp"

namespace loupe {

void JobSignal::notify() {
    {
        std::lock_guard lock(mutex_);
        ++generation_;
    }
    changed_.notify_one();
}

void JobSignal::notify_all() {
    {
        std::lock_guard lock(mutex_);
        ++generation_;
    }
    changed_.notify_all();
}

uint64_t JobSignal::generation() const {
    std::lock_guard lock(mutex_);
    return generation_;
}

void JobSignal::wait(uint64_t seen, std::chrono::milliseconds timeout) {
    std::unique_lock lock(mutex_);
    changed_.wait_for(lock, timeout, [&] { return generation_ != seen; });
}

}  // namespace loupe
