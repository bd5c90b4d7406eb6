#pragma once
// Process-wide memory for image comparisons (plugins.builds.diff_memory_mb). A comparison holds
// about 4 to 10 bytes per pixel of each image while it runs (a pair of 160 MP pages: 1.3 GB or
// more), so a few large pairs at once on as many job workers could take the host's memory. Each
// diff reserves its estimated need (diff_memory_need) before decoding; reservations are granted
// in arrival order while they fit, and one larger than the whole budget waits until it runs
// alone. THREADS: safe from any thread.

#include <condition_variable>
#include <cstdint>
#include <mutex>

namespace loupe::builds {

class DiffMemoryBudget {
public:
    explicit DiffMemoryBudget(uint64_t capacity_bytes);

    /// Memory held until the object goes away.
    class Grant {
    public:
        Grant(DiffMemoryBudget& budget, uint64_t bytes) : budget_(&budget), bytes_(bytes) {}
        ~Grant();
        Grant(const Grant&) = delete;
        Grant& operator=(const Grant&) = delete;

        uint64_t bytes() const { return bytes_; }

    private:
        DiffMemoryBudget* budget_;
        uint64_t bytes_;
    };

    /// Waits until `bytes` fit (the whole budget for a request larger than it), then holds
    /// them. Requests are served in the order they arrive, so a large one is not starved by a
    /// stream of small ones.
    [[nodiscard]] Grant acquire(uint64_t bytes);

    uint64_t capacity() const { return capacity_; }
    uint64_t in_use() const;

private:
    void release(uint64_t bytes);

    const uint64_t capacity_;
    mutable std::mutex mutex_;
    std::condition_variable changed_;
    uint64_t in_use_ = 0;
    uint64_t next_ticket_ = 0;
    uint64_t serving_ = 0;  ///< the ticket whose turn it is
};

/// The default budget: half the memory this process may use, the smaller of the machine's RAM
/// and its cgroup's limit (a container's memory.max), and at least 256 MiB.
uint64_t default_diff_memory_bytes();

/// The configured budget: `megabytes` when positive, else the default.
uint64_t diff_memory_bytes_setting(int64_t megabytes);

}  // namespace loupe::builds
