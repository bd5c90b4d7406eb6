#include "odiff_runner.hpp"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <vector>

extern char** environ;

namespace loupe::corpus {
namespace {

struct ProcessOutput {
    int exit_code = -1;
    std::string output;  ///< stdout and stderr, interleaved
};

ProcessOutput run_process(std::vector<std::string> args) {
    std::vector<char*> argv;
    for (auto& arg : args) {
        argv.push_back(arg.data());
    }
    argv.push_back(nullptr);

    std::array<int, 2> fds{};
    if (pipe(fds.data()) != 0) {
        throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addclose(&actions, fds[0]);
    posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&actions, fds[1], STDERR_FILENO);
    posix_spawn_file_actions_addclose(&actions, fds[1]);
    pid_t pid = 0;
    const int rc = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    close(fds[1]);
    if (rc != 0) {
        close(fds[0]);
        throw std::runtime_error("cannot start " + args[0] + ": " + std::strerror(rc));
    }

    ProcessOutput result;
    std::array<char, 4096> buffer{};
    for (;;) {
        const ssize_t n = read(fds[0], buffer.data(), buffer.size());
        if (n > 0) {
            result.output.append(buffer.data(), static_cast<size_t>(n));
        } else if (n == 0 || errno != EINTR) {
            break;
        }
    }
    close(fds[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    return result;
}

std::string format_threshold(double threshold) {
    std::string text = std::to_string(threshold);  // "0.150000"
    while (text.size() > 1 && text.back() == '0') {
        text.pop_back();
    }
    return text;
}

}  // namespace

OdiffResult run_odiff(const std::string& odiff, const std::string& base, const std::string& head,
                      const std::string& diff_png, double threshold) {
    const ProcessOutput out =
        run_process({odiff, base, head, diff_png, "--parsable-stdout", "--diff-mask",
                     "--threshold=" + format_threshold(threshold), "--antialiasing"});
    if (out.exit_code == 0) {
        return {};  // images match; odiff prints "0"
    }
    if (out.exit_code != 22) {
        throw std::runtime_error("odiff exited with " + std::to_string(out.exit_code) + ": " +
                                 out.output);
    }
    // --parsable-stdout prints "count;percentage" (percentage with two decimals).
    const auto separator = out.output.find(';');
    if (separator == std::string::npos || separator == 0) {
        throw std::runtime_error("unparsable odiff output: " + out.output);
    }
    OdiffResult result;
    result.count = std::stoull(out.output.substr(0, separator));
    result.percentage = out.output.substr(separator + 1);
    while (!result.percentage.empty() &&
           (result.percentage.back() == '\n' || result.percentage.back() == '\r')) {
        result.percentage.pop_back();
    }
    return result;
}

}  // namespace loupe::corpus
