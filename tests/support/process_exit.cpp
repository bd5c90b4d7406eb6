#include "support/process_exit.hpp"

#include <sys/wait.h>

#include <regex>
#include <stdexcept>
#include <thread>

namespace loupe::test {

int served_pid(const std::string& output) {
    static const std::regex pid("loupe: listening on \\S+ \\(pid ([0-9]+)\\)");
    std::smatch match;
    if (!std::regex_search(output, match, pid)) {
        throw std::runtime_error("no pid in the server's output:\n" + output);
    }
    return std::stoi(match[1]);
}

std::optional<int> wait_for_exit(int pid, std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (true) {
        siginfo_t info{};
        if (::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
            info.si_pid == pid) {
            return info.si_code == CLD_EXITED ? info.si_status : 128 + info.si_status;
        }
        if (std::chrono::steady_clock::now() >= deadline) {
            return std::nullopt;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
}

}  // namespace loupe::test
