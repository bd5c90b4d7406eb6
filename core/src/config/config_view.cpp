#include "loupe/config/config_view.hpp"

#include <charconv>
#include <stdexcept>
#include <string_view>

#include "loupe/text/strings.hpp"

namespace loupe {
namespace {

[[noreturn]] void refuse(const std::string& key, const std::string& value, const char* expected) {
    throw std::runtime_error("configuration key '" + key + "' has value '" + value +
                             "', which is not " + expected);
}

template <class Number>
Number parse_number(const std::string& key, const std::string& value, const char* expected) {
    const auto text = trim(value);
    Number number{};
    const auto* end = text.data() + text.size();
    const auto [stop, error] = std::from_chars(text.data(), end, number);
    if (text.empty() || error != std::errc{} || stop != end) {
        refuse(key, value, expected);
    }
    return number;
}

}  // namespace

ConfigView::~ConfigView() = default;

std::string ConfigView::get_string(const std::string& key, const std::string& fallback) const {
    return find(key).value_or(fallback);
}

int64_t ConfigView::get_int(const std::string& key, int64_t fallback) const {
    const auto value = find(key);
    return value ? parse_number<int64_t>(key, *value, "an integer") : fallback;
}

double ConfigView::get_double(const std::string& key, double fallback) const {
    const auto value = find(key);
    return value ? parse_number<double>(key, *value, "a number") : fallback;
}

bool ConfigView::get_bool(const std::string& key, bool fallback) const {
    const auto value = find(key);
    if (!value) {
        return fallback;
    }
    const std::string word = to_lower(trim(*value));
    if (word == "true" || word == "yes" || word == "1" || word == "on") {
        return true;
    }
    if (word == "false" || word == "no" || word == "0" || word == "off") {
        return false;
    }
    refuse(key, *value, "a boolean (true/false, yes/no, on/off, 1/0)");
}

}  // namespace loupe
