#pragma once
// Markdown comment bodies, converted to the rich-text document with CommonMark (libcmark).

#include <optional>
#include <string_view>

#include "loupe/json.hpp"
#include "mentions.hpp"

namespace loupe::reviews {

/// Converts valid UTF-8 Markdown to a comment document, as the editor would have parsed the
/// HTML rendering of it: paragraphs, headings (level), bullet and ordered lists (start), list
/// items, blockquotes, code blocks (language: the first word of the info string), hard breaks,
/// horizontal rules; bold, italic, code and link marks (links to disallowed schemes keep their
/// text and lose the link). Images and raw HTML are dropped. Runs of spaces and line breaks in
/// text collapse to one space, as in HTML. "@slug" becomes a mention when `mentions` finds
/// the user. nullopt when the Markdown nests deeper than any comment may.
std::optional<Json> markdown_to_document(std::string_view markdown, const MentionLookup& mentions);

}  // namespace loupe::reviews
