#include "identity/names.hpp"

#include <algorithm>

namespace loupe {
namespace {

constexpr std::string_view whitespace = " \t\n\r\f\v";

}  // namespace

std::optional<std::string> slug_problem(std::string_view slug) {
    const bool allowed = std::all_of(slug.begin(), slug.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
    });
    if (slug.empty() || slug.size() > max_slug_length || !allowed) {
        return "Invalid slug \"" + std::string(slug) + "\": use 1 to " +
               std::to_string(max_slug_length) + " lower-case letters, digits and dashes";
    }
    return std::nullopt;
}

std::optional<std::string> display_name_problem(std::string_view name) {
    if (trimmed(name).empty()) {
        return std::string("Name must not be empty");
    }
    if (name.size() > max_display_name_length) {
        return "Name must be at most " + std::to_string(max_display_name_length) + " characters";
    }
    return std::nullopt;
}

std::optional<std::string> branch_problem(std::string_view branch) {
    const bool has_space = branch.find_first_of(whitespace) != std::string_view::npos;
    if (branch.empty() || branch.size() > max_branch_length || has_space) {
        return "Invalid base branch \"" + std::string(branch) + "\": use 1 to " +
               std::to_string(max_branch_length) + " characters without spaces";
    }
    return std::nullopt;
}

std::string trimmed(std::string_view text) {
    const auto begin = text.find_first_not_of(whitespace);
    if (begin == std::string_view::npos) {
        return {};
    }
    const auto end = text.find_last_not_of(whitespace);
    return std::string(text.substr(begin, end - begin + 1));
}

std::string name_key(std::string_view name) {
    std::string key(name);
    std::transform(key.begin(), key.end(), key.begin(), [](char c) {
        return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
    });
    return key;
}

}  // namespace loupe
