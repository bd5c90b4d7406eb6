#pragma once
// Comparing secrets (signatures, token digests) in a time that does not tell where they differ.

#include <string_view>

namespace loupe {

/// True when `a` and `b` hold the same bytes; the time depends on their lengths only.
bool equal_in_constant_time(std::string_view a, std::string_view b);

}  // namespace loupe
