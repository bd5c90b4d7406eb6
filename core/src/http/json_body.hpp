#pragma once

#include <string_view>

#include "loupe/export.hpp"
#include "loupe/json.hpp"

namespace loupe {

/// Parses a request body as Express's strict JSON parser does: an empty body is null, anything
/// else must be an object or an array. Malformed input throws HttpError 400 worded as Node's
/// JSON.parse ("Unexpected token } in JSON at position 5", "Unexpected end of JSON input").
LOUPE_API Json parse_json_body(std::string_view body);

}  // namespace loupe
