#pragma once
// Reading a cookie the browser sent.

#include <optional>
#include <string>
#include <string_view>

#include "loupe/export.hpp"

namespace loupe {

/// The value of cookie `name` in a Cookie header ("a=1; loupe_session=...; b=2"), without the
/// quotes a quoted value has; nullopt when the header names no such cookie.
LOUPE_API std::optional<std::string> cookie_value(std::string_view cookie_header,
                                                  std::string_view name);

}  // namespace loupe
