#pragma once
// Bodies sent as `application/x-www-form-urlencoded` (HTML forms, OAuth token requests).

#include <map>
#include <string>
#include <string_view>

#include "loupe/export.hpp"

namespace loupe {

/// The fields of a form body, percent-decoded ('+' is a space). A field sent twice is refused
/// (throws HttpError 400 naming it), as OAuth requires of its requests.
LOUPE_API std::map<std::string, std::string> parse_form_body(std::string_view body);

}  // namespace loupe
