#pragma once
// Plugin commands that run without the runtime (see loupe/standalone_command.hpp).

#include <optional>
#include <string>
#include <vector>

#include "config/config.hpp"

namespace loupe {

/// Runs `command` with `args` when an enabled plugin exports it as a standalone command and
/// returns its exit code; nullopt when none does. Opens the enabled plugins' files in order
/// until one has it (and throws PluginLoadError for a file that fails the checks), installs
/// none, and opens no database.
std::optional<int> run_standalone_command(const Config& config, const std::string& command,
                                          const std::vector<std::string>& args);

}  // namespace loupe
