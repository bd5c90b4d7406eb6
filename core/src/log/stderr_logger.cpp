#include "log/stderr_logger.hpp"

#include <unistd.h>

#include <cerrno>
#include <mutex>
#include <stdexcept>

#include "log/log_line.hpp"

namespace loupe {
namespace {

// Shared by every logger (each plugin has its own), so lines from all of them never interleave.
std::mutex stderr_mutex;

void write_all(const std::string& text) {
    std::size_t written = 0;
    while (written < text.size()) {
        const auto result = ::write(STDERR_FILENO, text.data() + written, text.size() - written);
        if (result < 0) {
            if (errno == EINTR) {
                continue;
            }
            return;  // stderr is gone: there is nowhere left to report it
        }
        written += static_cast<std::size_t>(result);
    }
}

}  // namespace

StderrLogger::StderrLogger(std::string plugin, LogLevel min_level)
    : plugin_(std::move(plugin)), min_level_(min_level) {}

void StderrLogger::log(LogLevel level, std::string_view event,
                       std::initializer_list<LogField> fields) {
    if (level < min_level_) {
        return;
    }
    const auto line =
        format_log_line(std::chrono::system_clock::now(), level, plugin_, event, fields) + "\n";
    const std::lock_guard lock(stderr_mutex);
    write_all(line);
}

LogLevel StderrLogger::parse_level(const std::string& text) {
    for (const auto level : {LogLevel::debug, LogLevel::info, LogLevel::warn, LogLevel::error}) {
        if (text == log_level_name(level)) {
            return level;
        }
    }
    throw std::runtime_error("unknown log level '" + text +
                             "' (expected debug, info, warn or error)");
}

}  // namespace loupe
