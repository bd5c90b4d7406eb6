#pragma once

#include <string>

#include "loupe/json.hpp"
#include "loupe/log/logger.hpp"
#include "plugin/registries.hpp"

namespace loupe {

/// Calls every subscriber of `topic` in registration order; a throwing subscriber is logged
/// and the others still run.
void publish_event(const Registries& registries, Logger& log, const std::string& topic,
                   const Json& payload);

}  // namespace loupe
