#pragma once

#include <string>
#include <vector>

#include "runtime.hpp"

namespace loupe {

/// `loupe serve [--no-migrate]`: load plugins, migrate, bootstrap an empty database, start the
/// job workers, listen until SIGINT/SIGTERM, then stop HTTP, let the running jobs finish and
/// run the shutdown hooks.
int run_serve_command(Runtime& runtime, const std::vector<std::string>& args);

}  // namespace loupe
