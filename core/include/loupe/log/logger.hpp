#pragma once
// One line per event: `ts=... level=info plugin=builds event=build.created id=12`.

#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>

#include "loupe/export.hpp"

namespace loupe {

enum class LogLevel { debug, info, warn, error };

using LogField = std::pair<std::string_view, std::string>;

class LOUPE_API Logger {
public:
    virtual ~Logger();
    virtual void log(LogLevel level, std::string_view event,
                     std::initializer_list<LogField> fields = {}) = 0;
    void debug(std::string_view e, std::initializer_list<LogField> f = {}) {
        log(LogLevel::debug, e, f);
    }
    void info(std::string_view e, std::initializer_list<LogField> f = {}) {
        log(LogLevel::info, e, f);
    }
    void warn(std::string_view e, std::initializer_list<LogField> f = {}) {
        log(LogLevel::warn, e, f);
    }
    void error(std::string_view e, std::initializer_list<LogField> f = {}) {
        log(LogLevel::error, e, f);
    }
};

}  // namespace loupe
