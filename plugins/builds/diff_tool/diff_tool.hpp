#pragma once
// `loupe diff`: the diff engine as a command-line tool, without the server.

#include <string>
#include <vector>

namespace loupe::builds {

/// `loupe diff BASE HEAD [--threshold 0.5] [--out mask.png] [--json]` with its arguments:
/// prints the result and returns the exit code, 0 unchanged, 1 changed, 2 error (as odiff).
int run_diff(const std::vector<std::string>& args);

}  // namespace loupe::builds
