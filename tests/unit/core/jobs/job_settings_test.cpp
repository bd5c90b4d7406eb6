#include "jobs/job_settings.hpp"

#include <doctest/doctest.h>

#include "config/config.hpp"

namespace loupe {
namespace {

TEST_CASE("jobs settings: defaults, and the backoff doubles up to its cap") {
    const auto config = Config::load("", {{"jobs.workers", "3"}});
    const JobSettings settings = JobSettings::from_config(*config);
    CHECK(settings.workers == 3);
    CHECK(settings.lease_ms == 60'000);
    CHECK(settings.poll_ms == 200);
    CHECK(settings.keep_done_ms == 86'400'000);
    CHECK(settings.heartbeat_ms() == 20'000);
    CHECK(settings.retry_delay_ms(1) == 1'000);
    CHECK(settings.retry_delay_ms(2) == 2'000);
    CHECK(settings.retry_delay_ms(5) == 16'000);
    CHECK(settings.retry_delay_ms(9) == 256'000);
    CHECK(settings.retry_delay_ms(10) == 300'000);
    CHECK(settings.retry_delay_ms(1'000) == 300'000);
}

TEST_CASE("jobs settings: zero workers means one per core, bad values name their key") {
    CHECK(JobSettings::from_config(*Config::load("", {{"jobs.workers", "0"}})).workers >= 1);
    CHECK_THROWS_WITH_AS(JobSettings::from_config(*Config::load("", {{"jobs.lease_ms", "0"}})),
                         "jobs.lease_ms must be at least 3, got 0", std::runtime_error);
    CHECK_THROWS_WITH_AS(JobSettings::from_config(*Config::load("", {{"jobs.workers", "-1"}})),
                         "jobs.workers must be at least 0, got -1", std::runtime_error);
}

}  // namespace
}  // namespace loupe
