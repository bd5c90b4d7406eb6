#include "command_line.hpp"

#include <stdexcept>

namespace loupe {
namespace {

void add_override(CommandLine& line, const std::string& assignment) {
    auto equals = assignment.find('=');
    if (equals == std::string::npos || equals == 0) {
        throw std::invalid_argument("--set expects key=value, got '" + assignment + "'");
    }
    line.overrides[assignment.substr(0, equals)] = assignment.substr(equals + 1);
}

}  // namespace

CommandLine parse_command_line(int argc, char** argv) {
    CommandLine line;
    for (int i = 1; i < argc; ++i) {
        std::string arg = argv[i];
        auto value = [&](const std::string& option) -> std::string {
            if (i + 1 >= argc) {
                throw std::invalid_argument(option + " expects a value");
            }
            return argv[++i];
        };
        if (arg == "--config" || arg == "-c") {
            line.config_path = value(arg);
        } else if (arg.rfind("--config=", 0) == 0) {
            line.config_path = arg.substr(9);
        } else if (arg == "--set") {
            add_override(line, value(arg));
        } else if (arg.rfind("--set=", 0) == 0) {
            add_override(line, arg.substr(6));
        } else if (line.command.empty() && (arg == "--help" || arg == "-h")) {
            line.help = true;
        } else if (line.command.empty()) {
            line.command = arg;
        } else {
            line.args.push_back(arg);
        }
    }
    return line;
}

}  // namespace loupe
