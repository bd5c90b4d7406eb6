#pragma once

#include <optional>
#include <string_view>

namespace loupe {

enum class Method { get, head, post, put, patch, del, options };

std::string_view to_string(Method method);
std::optional<Method> parse_method(std::string_view text);

}  // namespace loupe
