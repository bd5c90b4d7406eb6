#include "http/accept_loop_wake.hpp"

#include <dirent.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>

namespace loupe {
namespace {

/// A real-time signal no other part of the server uses; its handler only makes poll() return.
int wake_signal() {
    static const int number = [] {
        const int chosen = SIGRTMIN + 5;
        struct sigaction action {};
        action.sa_handler = [](int) {};
        sigemptyset(&action.sa_mask);
        ::sigaction(chosen, &action, nullptr);
        return chosen;
    }();
    return number;
}

bool is_accept_loop(const std::string& task) {
    std::ifstream comm("/proc/self/task/" + task + "/comm");
    std::string name;
    std::getline(comm, name);
    return name == "civetweb-master";
}

}  // namespace

void interrupt_accept_loops() {
    const int signal_number = wake_signal();
    const auto close_folder = [](DIR* open) { ::closedir(open); };
    const std::unique_ptr<DIR, decltype(close_folder)> tasks(::opendir("/proc/self/task"),
                                                             close_folder);
    if (!tasks) {
        return;
    }
    while (const dirent* entry = ::readdir(tasks.get())) {
        char* end = nullptr;
        const long tid = std::strtol(entry->d_name, &end, 10);
        if (end != entry->d_name && *end == '\0' && is_accept_loop(entry->d_name)) {
            ::syscall(SYS_tgkill, ::getpid(), static_cast<pid_t>(tid), signal_number);
        }
    }
}

}  // namespace loupe
