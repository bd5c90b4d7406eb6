#pragma once
// The `jobs.*` configuration keys (etc/loupe.properties) and the retry backoff they define.

#include <cstdint>

#include "loupe/config/config_view.hpp"
#include "loupe/export.hpp"

namespace loupe {

struct LOUPE_API JobSettings {
    int workers = 1;                    ///< jobs.workers; 0 in the file = CPU cores
    int64_t lease_ms = 60'000;          ///< jobs.lease_ms
    int64_t poll_ms = 200;              ///< jobs.poll_ms
    int64_t retry_base_ms = 1'000;      ///< jobs.retry_base_ms
    int64_t retry_max_ms = 300'000;     ///< jobs.retry_max_ms
    int64_t keep_done_ms = 86'400'000;  ///< jobs.keep_done_ms
    /// jobs.drain_timeout_ms: at shutdown, how long running jobs may take to finish before
    /// they are handed back to the queue.
    int64_t drain_timeout_ms = 30'000;
    int64_t maintenance_interval_ms = 60'000;  ///< not a key: how often done jobs are purged

    /// Reads the keys; throws std::runtime_error naming a key whose value is out of range.
    static JobSettings from_config(const ConfigView& config);

    /// The pause before the run after failed attempt `attempt` (1-based): retry_base_ms
    /// doubled per attempt, capped at retry_max_ms.
    int64_t retry_delay_ms(int attempt) const;
    /// How often running jobs' leases are extended: a third of the lease.
    int64_t heartbeat_ms() const;
};

}  // namespace loupe
