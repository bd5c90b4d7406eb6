#pragma once
// Signals for a running `loupe serve` and its way out, for shutdown tests. The server prints
// its pid in its "listening" line; waiting does not reap the child, so ServerProcess still
// can (its restart() and destructor find a zombie, never another process).

#include <chrono>
#include <optional>
#include <string>

namespace loupe::test {

/// The pid printed in `output` ("loupe: listening on ... (pid N)"); throws if none.
int served_pid(const std::string& output);

/// Waits for the child `pid` to exit, without reaping it; its exit code (128 + signal when
/// killed), or nullopt if it still runs after `timeout`.
std::optional<int> wait_for_exit(int pid, std::chrono::milliseconds timeout);

}  // namespace loupe::test
