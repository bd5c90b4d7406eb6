#pragma once
// A `loupe serve` with the "jobs" fixture plugin and job settings fast enough for tests: two
// workers, a short poll and a short retry backoff.

#include "support/build_paths.hpp"
#include "support/server_process.hpp"

namespace loupe::test {

inline ServerOptions fixture_jobs_server_options() {
    ServerOptions options;
    options.plugins = {"jobs"};
    options.settings["plugins.path"] = LOUPE_TEST_FIXTURE_PLUGIN_DIR;
    options.settings["jobs.workers"] = "2";
    options.settings["jobs.poll_ms"] = "50";
    options.settings["jobs.retry_base_ms"] = "10";
    return options;
}

}  // namespace loupe::test
