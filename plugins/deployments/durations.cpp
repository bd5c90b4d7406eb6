#include "durations.hpp"

#include <charconv>

namespace loupe::deployments {

std::optional<int64_t> parse_duration_seconds(const std::string& text) {
    int64_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end == text.data() || value <= 0) {
        return std::nullopt;
    }
    const std::string_view unit(end, static_cast<std::size_t>(text.data() + text.size() - end));
    int64_t scale = 0;
    if (unit.empty() || unit == "s") {
        scale = 1;
    } else if (unit == "m") {
        scale = 60;
    } else if (unit == "h") {
        scale = 3600;
    } else if (unit == "d") {
        scale = 86400;
    } else {
        return std::nullopt;
    }
    if (value > INT64_MAX / scale) {
        return std::nullopt;
    }
    return value * scale;
}

}  // namespace loupe::deployments
