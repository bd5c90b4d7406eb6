#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace loupe::deployments {

/// "30d", "12h", "45m", "90s" or plain seconds, greater than zero; nullopt otherwise.
std::optional<int64_t> parse_duration_seconds(const std::string& text);

}  // namespace loupe::deployments
