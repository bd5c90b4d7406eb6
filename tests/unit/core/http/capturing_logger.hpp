#pragma once
// A Logger that keeps its lines in memory so tests can assert on them.

#include <mutex>
#include <string>
#include <vector>

#include "loupe/log/logger.hpp"

namespace loupe::http_test {

class CapturingLogger final : public Logger {
public:
    struct Line {
        LogLevel level;
        std::string event;
        std::string fields;  ///< " key=value key=value"
    };

    void log(LogLevel level, std::string_view event,
             std::initializer_list<LogField> fields = {}) override {
        std::string text;
        for (const auto& [key, value] : fields) {
            text.append(" ").append(key).append("=").append(value);
        }
        std::lock_guard lock(mutex_);
        lines_.push_back({level, std::string(event), std::move(text)});
    }

    std::vector<Line> lines(std::string_view event) const {
        std::lock_guard lock(mutex_);
        std::vector<Line> found;
        for (const Line& line : lines_) {
            if (line.event == event) {
                found.push_back(line);
            }
        }
        return found;
    }

private:
    mutable std::mutex mutex_;
    std::vector<Line> lines_;
};

}  // namespace loupe::http_test
