#pragma once

#include <string>

#include "loupe/export.hpp"
#include "loupe/log/logger.hpp"

namespace loupe {

/// Writes `ts=<iso> level=<l> [plugin=<p>] event=<e> k=v ...` lines to stderr; values with
/// spaces or quotes are quoted. Lines are written atomically (one write call under a mutex).
class LOUPE_API StderrLogger final : public Logger {
public:
    explicit StderrLogger(std::string plugin = {}, LogLevel min_level = LogLevel::info);
    void log(LogLevel level, std::string_view event,
             std::initializer_list<LogField> fields = {}) override;
    static LogLevel parse_level(const std::string& text);  ///< debug|info|warn|error

private:
    std::string plugin_;
    LogLevel min_level_;
};

}  // namespace loupe
