#pragma once

#include <string>
#include <vector>

#include "log/log_file.hpp"
#include "runtime.hpp"

namespace loupe {

/// `loupe serve [--no-migrate]`: load plugins, migrate, bootstrap an empty database, start the
/// job workers, listen until SIGINT/SIGTERM, then drain: stop accepting connections and claiming
/// jobs, let the requests in progress (http.drain_timeout_ms) and the running jobs
/// (jobs.drain_timeout_ms) finish, hand the jobs still running back to the queue, and run the
/// shutdown hooks. SIGHUP reopens `log_file` (may be null: the log goes to stderr).
int run_serve_command(Runtime& runtime, const std::vector<std::string>& args, LogFile* log_file);

}  // namespace loupe
