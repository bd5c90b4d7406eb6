#include <regex>

#include "loupe/auth/identity.hpp"

namespace loupe {

std::optional<std::string> project_name_problem(const std::string& name) {
    if (name.empty()) {
        return "Too small: expected string to have >=1 characters";
    }
    if (name.size() > 100) {
        return "Too big: expected string to have <=100 characters";
    }
    static const std::regex allowed("^[a-zA-Z0-9_\\-.]+$");
    if (!std::regex_match(name, allowed)) {
        return "Project name can only contain letters, numbers, dots, hyphens and underscores.";
    }
    return std::nullopt;
}

bool is_reserved_project_name(const std::string& name) {
    return name == "new" || name == "settings";
}

}  // namespace loupe
