#pragma once
// The Authorization header as Argos reads it: Argos hands the header to the
// `auth-header` npm package and requires exactly one token next to the scheme `Bearer`.

#include <string>
#include <string_view>

#include "loupe/export.hpp"

namespace loupe {

/// The bearer token of `header`, or HttpError 400 with the Argos message. A missing header is
/// the caller's (401 "Authorization header is missing").
LOUPE_API std::string parse_bearer_header(std::string_view header);

}  // namespace loupe
