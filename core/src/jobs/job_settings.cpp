#include "jobs/job_settings.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <thread>

namespace loupe {
namespace {

int64_t read(const ConfigView& config, const std::string& key, int64_t fallback, int64_t minimum) {
    const int64_t value = config.get_int(key, fallback);
    if (value < minimum) {
        throw std::runtime_error(key + " must be at least " + std::to_string(minimum) + ", got " +
                                 std::to_string(value));
    }
    return value;
}

}  // namespace

JobSettings JobSettings::from_config(const ConfigView& config) {
    JobSettings settings;
    const auto workers = read(config, "jobs.workers", 0, 0);
    settings.workers = workers > 0
                           ? static_cast<int>(workers)
                           : std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
    settings.lease_ms = read(config, "jobs.lease_ms", settings.lease_ms, 3);
    settings.poll_ms = read(config, "jobs.poll_ms", settings.poll_ms, 1);
    settings.retry_base_ms = read(config, "jobs.retry_base_ms", settings.retry_base_ms, 0);
    settings.retry_max_ms = read(config, "jobs.retry_max_ms", settings.retry_max_ms, 0);
    settings.keep_done_ms = read(config, "jobs.keep_done_ms", settings.keep_done_ms, 0);
    settings.drain_timeout_ms = read(config, "jobs.drain_timeout_ms", settings.drain_timeout_ms, 0);
    return settings;
}

int64_t JobSettings::retry_delay_ms(int attempt) const {
    int64_t delay = std::min(retry_base_ms, retry_max_ms);
    for (int i = 1; i < attempt && delay < retry_max_ms; ++i) {
        delay = std::min(delay * 2, retry_max_ms);
    }
    return delay;
}

int64_t JobSettings::heartbeat_ms() const {
    return std::max<int64_t>(1, lease_ms / 3);
}

}  // namespace loupe
