#pragma once

#include <optional>
#include <string_view>

#include "loupe/export.hpp"

namespace loupe {

enum class Method { get, head, post, put, patch, del, options };

LOUPE_API std::string_view to_string(Method method);
LOUPE_API std::optional<Method> parse_method(std::string_view text);

}  // namespace loupe
