#pragma once

#include <cstddef>
#include <string_view>

#include "loupe/export.hpp"
#include "loupe/json.hpp"

namespace loupe {

/// The default of http.max_json_values. A parsed value costs 16 bytes and up, an array element
/// in a small body a few bytes of text: the largest legitimate bodies (5,000 screenshots with
/// their metadata, a deployment's file list) hold well under 100,000.
inline constexpr std::size_t default_max_json_values = 500'000;

/// Parses a request body as Express's strict JSON parser does: an empty body is null, anything
/// else must be an object or an array. Malformed input throws HttpError 400 worded as Node's
/// JSON.parse ("Unexpected token } in JSON at position 5", "Unexpected end of JSON input").
/// A body holding more than `max_values` values (array elements and object members, the root
/// included) is refused with 413 before anything is parsed.
LOUPE_API Json parse_json_body(std::string_view body,
                               std::size_t max_values = default_max_json_values);

}  // namespace loupe
