#include "identity/names.hpp"

#include <algorithm>

#include "loupe/text/strings.hpp"

namespace loupe {

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
    if (trim(name).empty()) {
        return std::string("Name must not be empty");
    }
    if (name.size() > max_display_name_length) {
        return "Name must be at most " + std::to_string(max_display_name_length) + " characters";
    }
    return std::nullopt;
}

std::optional<std::string> branch_problem(std::string_view branch) {
    const bool has_space = branch.find_first_of(ascii_whitespace) != std::string_view::npos;
    if (branch.empty() || branch.size() > max_branch_length || has_space) {
        return "Invalid base branch \"" + std::string(branch) + "\": use 1 to " +
               std::to_string(max_branch_length) + " characters without spaces";
    }
    return std::nullopt;
}

std::string name_key(std::string_view name) {
    return to_lower(name);
}

}  // namespace loupe
