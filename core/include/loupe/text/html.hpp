#pragma once
// Text placed in HTML: e-mails, share pages, pull request comments. Every plugin that writes
// HTML from names, descriptions or URLs a user chose escapes them with this.

#include <string>
#include <string_view>

#include "loupe/export.hpp"

namespace loupe {

/// `text` safe inside HTML element content and quoted attribute values: & < > " ' escaped.
LOUPE_API std::string html_escape(std::string_view text);

}  // namespace loupe
