#pragma once

#include <optional>
#include <string>

#include "loupe/export.hpp"

namespace loupe {

/// True for application/json and any "+json" type (application/vnd.x+json), whatever the
/// parameters (charset) and letter case; false when there is no Content-Type.
LOUPE_API bool is_json_media_type(const std::optional<std::string>& content_type);

}  // namespace loupe
