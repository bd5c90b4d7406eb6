#pragma once

#include <optional>
#include <string>

#include "loupe/export.hpp"

namespace loupe {

/// True for application/json and any "+json" type (application/vnd.x+json), whatever the
/// parameters (charset) and letter case; false when there is no Content-Type.
LOUPE_API bool is_json_media_type(const std::optional<std::string>& content_type);
/// application/x-www-form-urlencoded, whatever its parameters.
LOUPE_API bool is_form_media_type(const std::optional<std::string>& content_type);

/// True when an Accept header names text/html (or application/xhtml+xml) among its media
/// ranges without q=0: what a browser's navigation sends. "*/*" alone, or no Accept at all,
/// does not ask for HTML.
LOUPE_API bool asks_for_html(const std::optional<std::string>& accept);

}  // namespace loupe
