#include "metrics/core_metrics.hpp"

#include <chrono>

#include "db/pool_stats.hpp"
#include "loupe/version.hpp"

namespace loupe::metrics {

void add_core_collectors(MetricRegistry& registry, const Database& database) {
    const double started =
        std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
    registry.add_collector(
        {"loupe_build_info", "loupe_process_start_time_seconds"}, [started](Exposition& out) {
            out.family("loupe_build_info", "Always 1; the version of the running Loupe.",
                       MetricType::gauge);
            out.sample("loupe_build_info", {{"version", LOUPE_VERSION}}, 1.0);
            out.family("loupe_process_start_time_seconds",
                       "When this process started, in seconds since the Unix epoch.",
                       MetricType::gauge);
            out.sample("loupe_process_start_time_seconds", {}, started);
        });
    const PoolStats* pool = pool_stats_of(database);
    if (pool == nullptr) {
        return;
    }
    registry.add_collector(
        {"loupe_db_pool_size", "loupe_db_pool_waits_total", "loupe_db_pool_wait_seconds_total"},
        [pool](Exposition& out) {
            out.family("loupe_db_pool_size", "Database connections in this process's pool.",
                       MetricType::gauge);
            out.sample("loupe_db_pool_size", {}, static_cast<double>(pool->size));
            out.family("loupe_db_pool_waits_total",
                       "Times a thread waited for a database connection (all were in use).",
                       MetricType::counter);
            out.sample("loupe_db_pool_waits_total", {},
                       pool->waits.load(std::memory_order_relaxed));
            out.family("loupe_db_pool_wait_seconds_total",
                       "Total time threads spent waiting for a database connection.",
                       MetricType::counter);
            out.sample(
                "loupe_db_pool_wait_seconds_total", {},
                static_cast<double>(pool->wait_nanoseconds.load(std::memory_order_relaxed)) / 1e9);
        });
}

}  // namespace loupe::metrics
