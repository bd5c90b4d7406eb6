#pragma once
// Subcommands of the `loupe` executable contributed by plugins (`loupe diff` from builds).
// A command receives the arguments after its name and returns the process exit code.

#include <functional>
#include <string>
#include <vector>

#include "loupe/export.hpp"

namespace loupe {

using CommandFn = std::function<int(const std::vector<std::string>& args)>;

class LOUPE_API Commands {
public:
    virtual ~Commands();
    virtual void add(std::string name, std::string summary, CommandFn run) = 0;
};

}  // namespace loupe
