#pragma once

#include <string>
#include <string_view>

namespace loupe::notifications {

/// `text` safe inside HTML element content and quoted attribute values: & < > " ' escaped.
std::string html_escape(std::string_view text);

}  // namespace loupe::notifications
