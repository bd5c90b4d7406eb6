#pragma once
// The rich-text comment document: TipTap/ProseMirror JSON of the StarterKit + mention schema,
// rooted at a "doc" node. What a valid document is, and its plain text.
//
// Nodes: doc (block+), paragraph and heading (inline*; heading attrs.level 1-6), blockquote
// (block+), bulletList and orderedList (listItem+; orderedList attrs.start, attrs.type),
// listItem (a paragraph, then blocks), codeBlock (unmarked text; attrs.language), horizontalRule,
// and the inline text (non-empty "text"), hardBreak and mention (attrs.id, attrs.label).
// Marks, only on the inline content of paragraphs and headings: link (attrs.href, target, rel,
// class, title), bold, code, italic, strike, underline; at most one of each, and code alone.

#include <cstddef>
#include <string>
#include <string_view>

#include "loupe/json.hpp"

namespace loupe::reviews {

enum class DocumentCheck {
    valid,
    invalid,
    /// Nested so deep (far past the comment depth limit) that it is not even looked at.
    too_deep,
};

/// Checks `doc` against the schema: node and mark types, their attributes (unknown ones are
/// refused), content of each node, non-empty text, valid UTF-8 in every string.
DocumentCheck check_document(const Json& doc);

/// The plain text of a stored document: the text of its text nodes concatenated in order, with
/// no separator; "" when `doc` is not a valid document.
std::string document_text(const Json& doc);

struct DocumentStats {
    size_t characters = 0;  // UTF-16 code units of text, as JavaScript counts them
    size_t nodes = 0;       // every node, the doc included
    size_t depth = 0;       // the doc is at depth 1
};
/// Counts over a valid document.
DocumentStats document_stats(const Json& doc);

/// Whether a link may point at `href`: one of the web, mail and messaging schemes, or a relative
/// address. Refuses "javascript:", "data:" and every other scheme.
bool is_allowed_link_href(std::string_view href);

}  // namespace loupe::reviews
