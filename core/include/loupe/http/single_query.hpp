#pragma once
// A query parameter that may appear once: `?branch=a&branch=b` is a validation issue with zod's
// wording for an array where a string was expected (and an empty one, where asked, for a string
// too short).

#include <optional>
#include <string>
#include <string_view>

#include "loupe/http/request.hpp"
#include "loupe/json.hpp"

namespace loupe {

/// The value of `name` (nullopt when absent); a repeated parameter adds an issue to
/// `validation` and reads as absent.
inline std::optional<std::string> single_query(const Request& request, std::string_view name,
                                               Validation& validation) {
    if (request.query_count(name) > 1) {
        validation.add(name, "Invalid input: expected string, received array");
        return std::nullopt;
    }
    return request.query(name);
}

/// As single_query; a present but empty value also adds an issue.
inline std::optional<std::string> non_empty_single_query(const Request& request,
                                                         std::string_view name,
                                                         Validation& validation) {
    auto value = single_query(request, name, validation);
    if (value && value->empty()) {
        validation.add(name, "Too small: expected string to have >=1 characters");
    }
    return value;
}

}  // namespace loupe
