#include "comment_body.hpp"

#include <algorithm>

#include "markdown.hpp"
#include "unicode.hpp"

namespace loupe::reviews {

namespace {

constexpr size_t kMaxCharacters = 2'000;
constexpr size_t kMaxJsonBytes = 40'000;
constexpr size_t kMaxNodes = 300;
constexpr size_t kMaxDepth = 12;

[[noreturn]] void refuse(std::string_view message) {
    throw CommentBodyError(std::string(message));
}

const std::string& type_of(const Json& node) {
    return node.at("type").get_ref<const std::string&>();
}

const Json& content_of(const Json& node) {
    static const Json kNone = Json::array();
    const auto content = node.find("content");
    return content == node.end() || content->is_null() ? kNone : *content;
}

bool is_blank_inline(const Json& node) {
    return type_of(node) == "hardBreak" ||
           (type_of(node) == "text" && is_blank(node.at("text").get_ref<const std::string&>()));
}

bool is_blank_paragraph(const Json& node) {
    const Json& content = content_of(node);
    return type_of(node) == "paragraph" &&
           std::all_of(content.begin(), content.end(), is_blank_inline);
}

/// Drops the line breaks opening (`leading`) and closing (`trailing`) a paragraph.
Json trim_breaks(Json node, bool leading, bool trailing) {
    if (type_of(node) != "paragraph") {
        return node;
    }
    const Json& content = content_of(node);
    const auto is_break = [](const Json& child) { return type_of(child) == "hardBreak"; };
    auto begin = content.begin();
    auto end = content.end();
    while (leading && begin != end && is_break(*begin)) {
        ++begin;
    }
    while (trailing && end != begin && is_break(*(end - 1))) {
        --end;
    }
    if (begin != content.begin() || end != content.end()) {
        node["content"] = Json(begin, end);
    }
    return node;
}

/// The document without its leading and trailing blank paragraphs and boundary line breaks.
Json trim_document(const Json& doc) {
    const Json& content = content_of(doc);
    auto begin = content.begin();
    auto end = content.end();
    while (begin != end && is_blank_paragraph(*begin)) {
        ++begin;
    }
    while (end != begin && is_blank_paragraph(*(end - 1))) {
        --end;
    }
    Json trimmed = doc;
    trimmed["content"] = Json(begin, end);
    Json& blocks = trimmed["content"];
    if (!blocks.empty()) {
        const size_t last = blocks.size() - 1;
        blocks[0] = trim_breaks(std::move(blocks[0]), true, last == 0);
        if (last > 0) {
            blocks[last] = trim_breaks(std::move(blocks[last]), false, true);
        }
    }
    return trimmed;
}

/// Whether any node of the document carries content: non-whitespace text or a mention.
bool has_content(const Json& node) {
    if (type_of(node) == "mention") {
        return true;
    }
    if (const auto text = node.find("text"); text != node.end()) {
        return !is_blank(text->get_ref<const std::string&>());
    }
    const Json& content = content_of(node);
    return std::any_of(content.begin(), content.end(), has_content);
}

bool is_too_large(const Json& doc) {
    const DocumentStats stats = document_stats(doc);
    return stats.characters > kMaxCharacters || stats.nodes > kMaxNodes ||
           stats.depth > kMaxDepth || doc.dump().size() > kMaxJsonBytes;
}

void collect_mentions(const Json& node, std::vector<std::string>& ids) {
    if (type_of(node) == "mention") {
        const auto& id = node.at("attrs").at("id").get_ref<const std::string&>();
        if (std::find(ids.begin(), ids.end(), id) == ids.end()) {
            ids.push_back(id);
        }
    }
    for (const Json& child : content_of(node)) {
        collect_mentions(child, ids);
    }
}

/// The body rules over a document: valid, trimmed, not empty, not too large. The document is
/// checked before anything copies or serializes it (both recurse through its nesting).
CommentBody resolve_document(const Json& doc) {
    switch (check_document(doc)) {
        case DocumentCheck::invalid:
            refuse(kInvalidCommentBody);
        case DocumentCheck::too_deep:
            refuse(kCommentTooLarge);
        case DocumentCheck::valid:
            break;
    }
    CommentBody result;
    result.doc = trim_document(doc);
    if (!has_content(result.doc)) {
        refuse(kEmptyComment);
    }
    if (is_too_large(result.doc)) {
        refuse(kCommentTooLarge);
    }
    result.text = document_text(result.doc);
    result.mentioned_user_ids = mentioned_user_ids(result.doc);
    return result;
}

}  // namespace

std::vector<std::string> mentioned_user_ids(const Json& doc) {
    std::vector<std::string> ids;
    collect_mentions(doc, ids);
    return ids;
}

CommentBody parse_comment_body(const Json& body, const MentionLookup& mentions) {
    if (body.is_object()) {
        return resolve_document(body);
    }
    if (!body.is_string() || !is_valid_utf8(body.get_ref<const std::string&>())) {
        refuse(kInvalidCommentBody);
    }
    const std::optional<Json> doc =
        markdown_to_document(body.get_ref<const std::string&>(), mentions);
    if (!doc) {
        refuse(kCommentTooLarge);
    }
    // Valid by construction; it goes through the same checks all the same.
    return resolve_document(*doc);
}

}  // namespace loupe::reviews
