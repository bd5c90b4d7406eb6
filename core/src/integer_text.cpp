#include "loupe/http/integer_text.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>

namespace loupe {
namespace {

bool all_digits(std::string_view text) {
    return std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

/// Whether JavaScript's Number() would read `text` as a finite number (1.5, 1e3, " 7").
bool looks_numeric(std::string_view text) {
    const std::string copy(text);
    if (copy.find_first_of("xXpPnN") != std::string::npos) {
        return false;  // hexadecimal, infinities and NaN spelled out
    }
    char* end = nullptr;
    const double value = std::strtod(copy.c_str(), &end);
    while (end != nullptr && (*end == ' ' || *end == '\t')) {
        ++end;
    }
    return !copy.empty() && end == copy.c_str() + copy.size() && std::isfinite(value);
}

}  // namespace

std::optional<int64_t> read_positive_integer(std::string_view text, int64_t max,
                                             Validation& validation) {
    if (text.empty() || !all_digits(text)) {
        validation.add("", text.empty()          ? "Too small: expected number to be >=1"
                           : looks_numeric(text) ? "Invalid input: expected int, received number"
                                                 : "Invalid input: expected number, received NaN");
        return std::nullopt;
    }
    const std::string_view digits = text.substr(std::min(text.find_first_not_of('0'), text.size()));
    const std::string bound = std::to_string(max);
    if (digits.size() > bound.size() || (digits.size() == bound.size() && digits > bound)) {
        validation.add("", "Too big: expected number to be <=" + bound);
        return std::nullopt;
    }
    const int64_t value = digits.empty() ? 0 : std::stoll(std::string(digits));
    if (value < 1) {
        validation.add("", "Too small: expected number to be >=1");
        return std::nullopt;
    }
    return value;
}

std::optional<int64_t> path_id(std::string_view text) {
    Validation ignored;
    return read_positive_integer(text, INT64_MAX, ignored);
}

}  // namespace loupe
