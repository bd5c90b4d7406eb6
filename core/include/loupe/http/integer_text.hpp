#pragma once
// Positive integers sent as text: path segments (build numbers) and query values (page,
// perPage). Only decimal digits are a number here: no sign, no spaces, no fraction, exponent
// or hexadecimal, and nothing past the bound, so no two spellings name the same page or build
// and no value overflows on its way to SQL. Failures are worded like Argos's (zod) issues,
// with an empty path: " is Invalid input: expected number, received NaN".

#include <cstdint>
#include <optional>
#include <string_view>

#include "loupe/json.hpp"

namespace loupe {

/// `text` as an integer in 1..max, or nullopt after adding the issue to `validation`.
LOUPE_API std::optional<int64_t> read_positive_integer(std::string_view text, int64_t max,
                                                       Validation& validation);

/// A path segment naming a row by its id (1..INT64_MAX, digits only); nullopt for anything
/// else, which names no row (the route answers 404, not 400).
LOUPE_API std::optional<int64_t> path_id(std::string_view text);

}  // namespace loupe
