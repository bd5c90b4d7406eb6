#include "loupe/text/duration.hpp"

#include <charconv>
#include <cstdint>

namespace loupe {

std::optional<std::chrono::milliseconds> parse_duration(std::string_view text) {
    constexpr std::size_t max_digits = 6;
    if (text.size() < 2 || text.size() > max_digits + 1) {
        return std::nullopt;
    }
    int64_t amount = 0;
    const auto digits = text.substr(0, text.size() - 1);
    const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), amount);
    if (error != std::errc{} || end != digits.data() + digits.size() || amount <= 0) {
        return std::nullopt;
    }
    switch (text.back()) {
        case 's':
            return std::chrono::seconds(amount);
        case 'm':
            return std::chrono::minutes(amount);
        case 'h':
            return std::chrono::hours(amount);
        case 'd':
            return std::chrono::hours(24 * amount);
        default:
            return std::nullopt;
    }
}

}  // namespace loupe
