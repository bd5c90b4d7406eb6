#pragma once
// The plain text of a comment's rich-text document for a mail: text nodes as written, a
// mention as "@label", a line break after every block, hard breaks kept. Unknown nodes give
// their children's text, so a newer document shape still reads.

#include <string>

#include "loupe/json.hpp"

namespace loupe::notifications {

std::string document_plain_text(const Json& doc);

}  // namespace loupe::notifications
