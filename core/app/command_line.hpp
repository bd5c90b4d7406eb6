#pragma once
// `loupe [--config FILE] [--set key=value]... COMMAND [ARGS...]`: the global options may
// appear anywhere; everything else is the command and its arguments.

#include <map>
#include <string>
#include <vector>

namespace loupe {

struct CommandLine {
    std::string config_path;
    std::map<std::string, std::string> overrides;
    std::string command;
    std::vector<std::string> args;
    bool help = false;
};

/// Throws std::invalid_argument with a usage message on a malformed option.
CommandLine parse_command_line(int argc, char** argv);

}  // namespace loupe
