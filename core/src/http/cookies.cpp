#include "loupe/http/cookies.hpp"

#include "loupe/text/strings.hpp"

namespace loupe {

std::optional<std::string> cookie_value(std::string_view cookie_header, std::string_view name) {
    while (!cookie_header.empty()) {
        const std::size_t end = cookie_header.find(';');
        const std::string_view pair = trim(cookie_header.substr(0, end), http_whitespace);
        const std::size_t equals = pair.find('=');
        if (equals != std::string_view::npos &&
            trim(pair.substr(0, equals), http_whitespace) == name) {
            std::string_view value = trim(pair.substr(equals + 1), http_whitespace);
            if (value.size() >= 2 && value.front() == '"' && value.back() == '"') {
                value = value.substr(1, value.size() - 2);
            }
            return std::string(value);
        }
        if (end == std::string_view::npos) {
            break;
        }
        cookie_header.remove_prefix(end + 1);
    }
    return std::nullopt;
}

}  // namespace loupe
