#include "log/log_line.hpp"

#include <ctime>
#include <iomanip>
#include <sstream>

namespace loupe {
namespace {

bool needs_quotes(std::string_view value) {
    if (value.empty()) {
        return true;
    }
    for (const char c : value) {
        if (c == ' ' || c == '"' || c == '=' || c == '\\' || static_cast<unsigned char>(c) < 0x20 ||
            c == 0x7f) {
            return true;
        }
    }
    return false;
}

std::string iso_timestamp(std::chrono::system_clock::time_point time) {
    const auto millis =
        std::chrono::duration_cast<std::chrono::milliseconds>(time.time_since_epoch()).count();
    const std::time_t seconds = static_cast<std::time_t>(millis / 1000);
    std::tm utc{};
    gmtime_r(&seconds, &utc);
    std::ostringstream out;
    out << std::put_time(&utc, "%Y-%m-%dT%H:%M:%S") << '.' << std::setw(3) << std::setfill('0')
        << (millis % 1000) << 'Z';
    return out.str();
}

}  // namespace

std::string_view log_level_name(LogLevel level) {
    switch (level) {
        case LogLevel::debug:
            return "debug";
        case LogLevel::info:
            return "info";
        case LogLevel::warn:
            return "warn";
        case LogLevel::error:
            return "error";
    }
    return "unknown";
}

std::string log_value(std::string_view value) {
    if (!needs_quotes(value)) {
        return std::string(value);
    }
    std::string quoted = "\"";
    for (const char c : value) {
        switch (c) {
            case '"':
                quoted += "\\\"";
                break;
            case '\\':
                quoted += "\\\\";
                break;
            case '\n':
                quoted += "\\n";
                break;
            case '\r':
                quoted += "\\r";
                break;
            case '\t':
                quoted += "\\t";
                break;
            default:
                if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
                    static constexpr char hex[] = "0123456789abcdef";
                    quoted += "\\x";
                    quoted += hex[(c >> 4) & 0xf];
                    quoted += hex[c & 0xf];
                } else {
                    quoted += c;
                }
        }
    }
    quoted += '"';
    return quoted;
}

std::string format_log_line(std::chrono::system_clock::time_point time, LogLevel level,
                            std::string_view plugin, std::string_view event,
                            std::initializer_list<LogField> fields) {
    std::string line = "ts=" + iso_timestamp(time) + " level=" + std::string(log_level_name(level));
    if (!plugin.empty()) {
        line += " plugin=" + log_value(plugin);
    }
    line += " event=" + log_value(event);
    for (const auto& [key, value] : fields) {
        line += ' ';
        line += key;
        line += '=';
        line += log_value(value);
    }
    return line;
}

}  // namespace loupe
