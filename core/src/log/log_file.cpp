#include "log/log_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace loupe {
namespace {

/// Points descriptor 2 at `path`; the reason on failure, else empty.
std::string redirect_stderr(const std::string& path) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
    if (fd < 0) {
        return std::strerror(errno);
    }
    // dup2 swaps the file atomically: a concurrent write goes wholly to the old or the new one.
    if (::dup2(fd, STDERR_FILENO) < 0) {
        const std::string reason = std::strerror(errno);
        ::close(fd);
        return reason;
    }
    ::close(fd);
    return {};
}

}  // namespace

LogFile::LogFile(std::string path) : path_(std::move(path)) {
    if (const auto problem = redirect_stderr(path_); !problem.empty()) {
        throw std::runtime_error("log.file: cannot open " + path_ + ": " + problem);
    }
}

std::string LogFile::reopen() {
    return redirect_stderr(path_);
}

}  // namespace loupe
