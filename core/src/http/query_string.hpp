#pragma once

#include <map>
#include <string>
#include <string_view>

#include "loupe/export.hpp"

namespace loupe {

/// Decoded query parameters; a repeated key keeps every value, in order.
using QueryParameters = std::multimap<std::string, std::string, std::less<>>;

/// Parses "a=1&b=x+y&a=%32" as Node's querystring does: '&' separates pairs, the first '='
/// splits key from value, '+' is a space, empty pairs are skipped, a key without '=' has "".
LOUPE_API QueryParameters parse_query_string(std::string_view query);

}  // namespace loupe
