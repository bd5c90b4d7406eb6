#pragma once
// The text of one log line, without the trailing newline (logfmt style, as in logger.hpp).

#include <chrono>
#include <string>
#include <string_view>

#include "loupe/export.hpp"
#include "loupe/log/logger.hpp"

namespace loupe {

LOUPE_API std::string_view log_level_name(LogLevel level);

/// `value` as it appears after `key=`: bare when safe, else double-quoted with `"`, `\` and
/// control characters escaped (a value can never break the line in two).
LOUPE_API std::string log_value(std::string_view value);

LOUPE_API std::string format_log_line(std::chrono::system_clock::time_point time, LogLevel level,
                                      std::string_view plugin, std::string_view event,
                                      std::initializer_list<LogField> fields);

}  // namespace loupe
