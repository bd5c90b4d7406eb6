#pragma once
// Wakes idle job workers of this process when a job is enqueued here. The notify may come
// before the enqueuing transaction commits; the workers' poll catches such a job later.

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>

#include "loupe/export.hpp"

namespace loupe {

class LOUPE_API JobSignal {
public:
    /// Wakes one idle worker.
    void notify();
    /// Wakes every idle worker (shutdown).
    void notify_all();
    /// Read before looking for work, then passed to wait(), so a notify in between is not lost.
    uint64_t generation() const;
    /// Returns after a notify later than `seen`, or after `timeout`.
    void wait(uint64_t seen, std::chrono::milliseconds timeout);

private:
    mutable std::mutex mutex_;
    std::condition_variable changed_;
    uint64_t generation_ = 0;
};

}  // namespace loupe
