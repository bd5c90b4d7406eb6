#pragma once
// Durations as people write them on a command line or in the configuration.

#include <chrono>
#include <optional>
#include <string_view>

#include "loupe/export.hpp"

namespace loupe {

/// "30d", "12h", "45m", "30s": a positive whole number of at most 6 digits and its unit (up to
/// 999,999 days: no overflow, and no typo of years); nullopt for anything else.
LOUPE_API std::optional<std::chrono::milliseconds> parse_duration(std::string_view text);

}  // namespace loupe
