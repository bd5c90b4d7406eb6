#pragma once
// The body of a comment: a Markdown string or a rich-text JSON document, resolved to the
// stored document, its plain text and the users it mentions. Pure functions: no database, no
// HTTP. The comment routes call parse_comment_body on create and edit.

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "emoji.hpp"
#include "loupe/json.hpp"
#include "mentions.hpp"
#include "rich_text.hpp"

namespace loupe::reviews {

inline constexpr std::string_view kInvalidCommentBody =
    "Invalid comment body. Expected Markdown text or a valid rich-text JSON document.";
inline constexpr std::string_view kEmptyComment = "Comment cannot be empty";
inline constexpr std::string_view kCommentTooLarge = "Comment is too large";

struct CommentBody {
    Json doc;          // the stored document, root {"type":"doc","content":[...]}, trimmed
    std::string text;  // plain text: all text nodes concatenated in order, no separator
    std::vector<std::string> mentioned_user_ids;  // mention ids in order of appearance, once each
};

/// Thrown with exactly one of kInvalidCommentBody, kEmptyComment, kCommentTooLarge.
class CommentBodyError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// A Markdown string or a rich-text document object; anything else is invalid. In order:
/// - a string must be valid UTF-8 and is converted (markdown.hpp); an object must be a valid
///   document (rich_text.hpp), else kInvalidCommentBody;
/// - blank paragraphs (nothing but whitespace and line breaks) are trimmed from the start and
///   end of the document, then the line breaks opening its first and closing its last paragraph;
/// - no text but whitespace and no mention: kEmptyComment;
/// - more than 2,000 characters of text (UTF-16 code units, as JavaScript counts), more than
///   40,000 bytes of JSON, more than 300 nodes or a depth over 12: kCommentTooLarge.
/// Mention ids of a document sent as JSON are taken as sent: the caller keeps only those of
/// users who may be mentioned.
CommentBody parse_comment_body(const Json& body, const MentionLookup& mentions);

/// The mention ids of a valid document (one parse_comment_body returned, or stored), in order of
/// appearance, once each.
std::vector<std::string> mentioned_user_ids(const Json& doc);

}  // namespace loupe::reviews
