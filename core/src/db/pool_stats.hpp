#pragma once
// How often and how long callers waited for a database connection because every one of the
// pool's was in use (a pool too small for the threads and workers that share it).

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "loupe/db/database.hpp"
#include "loupe/export.hpp"

namespace loupe {

struct PoolStats {
    std::size_t size = 0;
    std::atomic<uint64_t> waits{0};             ///< leases that had to wait
    std::atomic<uint64_t> wait_nanoseconds{0};  ///< their total wait
};

/// The statistics of a pool opened by open_database(), or nullptr for another Database.
LOUPE_API const PoolStats* pool_stats_of(const Database& database);

}  // namespace loupe
