#pragma once

#include <string>
#include <string_view>

#include "loupe/export.hpp"

namespace loupe {

/// Decodes %XX escapes (and '+' as a space for query strings). A malformed escape such as
/// "%zz" or a trailing "%" is kept literally rather than rejected.
LOUPE_API std::string percent_decode(std::string_view text, bool plus_is_space = false);

}  // namespace loupe
