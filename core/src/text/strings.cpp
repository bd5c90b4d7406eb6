#include "loupe/text/strings.hpp"

namespace loupe {

std::string_view trim_start(std::string_view text, std::string_view characters) {
    const auto begin = text.find_first_not_of(characters);
    return begin == std::string_view::npos ? std::string_view() : text.substr(begin);
}

std::string_view trim_end(std::string_view text, std::string_view characters) {
    const auto last = text.find_last_not_of(characters);
    return last == std::string_view::npos ? std::string_view() : text.substr(0, last + 1);
}

std::string_view trim(std::string_view text, std::string_view characters) {
    return trim_end(trim_start(text, characters), characters);
}

std::vector<std::string_view> split(std::string_view text, char separator) {
    std::vector<std::string_view> parts;
    while (true) {
        const auto at = text.find(separator);
        parts.push_back(text.substr(0, at));
        if (at == std::string_view::npos) {
            return parts;
        }
        text.remove_prefix(at + 1);
    }
}

std::vector<std::string_view> split_trimmed(std::string_view text, char separator,
                                            std::string_view characters) {
    std::vector<std::string_view> parts;
    for (auto part : split(text, separator)) {
        part = trim(part, characters);
        if (!part.empty()) {
            parts.push_back(part);
        }
    }
    return parts;
}

std::string join(const std::vector<std::string>& parts, std::string_view separator) {
    std::string joined;
    for (std::size_t i = 0; i < parts.size(); ++i) {
        if (i > 0) {
            joined += separator;
        }
        joined += parts[i];
    }
    return joined;
}

char to_lower(char c) {
    return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

std::string to_lower(std::string_view text) {
    std::string lower(text);
    for (char& c : lower) {
        c = to_lower(c);
    }
    return lower;
}

std::string to_upper(std::string_view text) {
    std::string upper(text);
    for (char& c : upper) {
        c = c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c;
    }
    return upper;
}

bool equals_ignoring_case(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) {
        return false;
    }
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (to_lower(a[i]) != to_lower(b[i])) {
            return false;
        }
    }
    return true;
}

bool starts_with_ignoring_case(std::string_view text, std::string_view prefix) {
    return text.size() >= prefix.size() &&
           equals_ignoring_case(text.substr(0, prefix.size()), prefix);
}

}  // namespace loupe
