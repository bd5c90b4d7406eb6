#include "markdown.hpp"

#include <cmark.h>

#include <cstdio>
#include <memory>
#include <string>

#include "rich_text.hpp"
#include "unicode.hpp"

namespace loupe::reviews {

namespace {

// Markdown nested deeper than this (quotes in quotes, lists in lists, emphasis in emphasis), or
// converting to more nodes than that, is refused as too large without converting the rest: a
// comment has at most 300 nodes and a depth of 12, and trimming only removes blank paragraphs
// and line breaks at its edges. Keeps hostile bodies (3 MB of "*a* ") cheap.
constexpr size_t kMaxMarkdownNesting = 200;
constexpr size_t kMaxConvertedNodes = 10'000;

struct TooLarge {};

/// Counts the nodes a conversion creates.
class NodeBudget {
public:
    void spend() {
        if (++spent_ > kMaxConvertedNodes) {
            throw TooLarge{};
        }
    }

private:
    size_t spent_ = 0;
};

/// A node or mark of `type` with nothing else.
Json node_of_type(std::string_view type) {
    return Json{{"type", type}};
}

/// The marks in force on inline content, written out in the schema's rank order.
struct Marks {
    Json link;  // null when not in a link
    bool bold = false;
    bool code = false;
    bool italic = false;

    Json to_json() const {
        Json marks = Json::array();
        if (code) {  // code excludes every other mark
            marks.push_back(node_of_type("code"));
            return marks;
        }
        if (!link.is_null()) {
            marks.push_back(link);
        }
        if (bold) {
            marks.push_back(node_of_type("bold"));
        }
        if (italic) {
            marks.push_back(node_of_type("italic"));
        }
        return marks;
    }
};

Json with_marks(Json node, const Marks& marks) {
    Json json = marks.to_json();
    if (!json.empty()) {
        node["marks"] = std::move(json);
    }
    return node;
}

bool is_collapsible(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}

std::string collapse_whitespace(std::string_view text) {
    std::string collapsed;
    collapsed.reserve(text.size());
    for (const char c : text) {
        if (!is_collapsible(c)) {
            collapsed.push_back(c);
        } else if (collapsed.empty() || collapsed.back() != ' ') {
            collapsed.push_back(' ');
        }
    }
    return collapsed;
}

/// A link address as the HTML rendering carries it: percent-encoded like encodeURI, except
/// that an existing '%' is kept as it is.
std::string encode_href(std::string_view url) {
    static constexpr std::string_view kKept = ";,/?:@&=+$-_.!~*'()#%";
    std::string encoded;
    for (const char c : url) {
        const auto byte = static_cast<unsigned char>(c);
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
            kKept.find(c) != std::string_view::npos) {
            encoded.push_back(c);
        } else {
            char escaped[4];
            std::snprintf(escaped, sizeof escaped, "%%%02X", byte);
            encoded += escaped;
        }
    }
    return encoded;
}

std::string_view literal(cmark_node* node) {
    const char* text = cmark_node_get_literal(node);
    return text == nullptr ? std::string_view() : std::string_view(text);
}

/// The inline content of one paragraph or heading, built the way an HTML parser fills a text
/// block: whitespace collapsed, a space dropped at the start of the block, after a line break
/// or after another space, and at the end of the block; neighbours with equal marks joined.
class InlineContent {
public:
    explicit InlineContent(NodeBudget& budget) : budget_(budget) {}

    void add_text(std::string_view raw, const Marks& marks) {
        std::string text = collapse_whitespace(raw);
        if (!text.empty() && text.front() == ' ' && follows_break_or_space()) {
            text.erase(0, 1);
        }
        if (text.empty()) {
            return;
        }
        Json node = with_marks(node_of_type("text"), marks);
        if (!nodes_.empty() && nodes_.back().contains("text") && same_marks(nodes_.back(), node)) {
            nodes_.back()["text"].get_ref<std::string&>() += text;
            return;
        }
        budget_.spend();
        node["text"] = std::move(text);
        nodes_.push_back(std::move(node));
    }

    void add_hard_break(const Marks& marks) {
        budget_.spend();
        nodes_.push_back(with_marks(node_of_type("hardBreak"), marks));
    }

    Json finish(MentionResolver& mentions) {
        if (!nodes_.empty() && nodes_.back().contains("text")) {
            auto& text = nodes_.back()["text"].get_ref<std::string&>();
            if (text.back() == ' ') {
                text.pop_back();
            }
            if (text.empty()) {
                nodes_.erase(nodes_.size() - 1);
            }
        }
        return link_mentions(nodes_, mentions);
    }

private:
    static bool same_marks(const Json& a, const Json& b) {
        const auto a_marks = a.find("marks");
        const auto b_marks = b.find("marks");
        return a_marks == a.end() ? b_marks == b.end() : b_marks != b.end() && *a_marks == *b_marks;
    }

    bool follows_break_or_space() const {
        if (nodes_.empty()) {
            return true;
        }
        const Json& last = nodes_.back();
        if (last.at("type") == "hardBreak") {
            return true;
        }
        const auto text = last.find("text");
        return text != last.end() && text->get_ref<const std::string&>().back() == ' ';
    }

    NodeBudget& budget_;
    Json nodes_ = Json::array();
};

class Converter {
public:
    explicit Converter(const MentionLookup& lookup) : mentions_(lookup) {}

    Json blocks(cmark_node* parent, size_t depth) {
        guard(depth);
        Json content = Json::array();
        for (cmark_node* child = cmark_node_first_child(parent); child != nullptr;
             child = cmark_node_next(child)) {
            Json converted = block(child, depth + 1);
            if (!converted.is_null()) {
                budget_.spend();
                content.push_back(std::move(converted));
            }
        }
        return content;
    }

private:
    static void guard(size_t depth) {
        if (depth > kMaxMarkdownNesting) {
            throw TooLarge{};
        }
    }

    /// The converted block, or null for what the schema has no place for.
    Json block(cmark_node* node, size_t depth) {
        switch (cmark_node_get_type(node)) {
            case CMARK_NODE_PARAGRAPH:
                return text_block(node_of_type("paragraph"), node, depth);
            case CMARK_NODE_HEADING:
                return text_block({{"type", "heading"},
                                   {"attrs", {{"level", cmark_node_get_heading_level(node)}}}},
                                  node, depth);
            case CMARK_NODE_BLOCK_QUOTE:
                return {{"type", "blockquote"}, {"content", blocks_or_paragraph(node, depth)}};
            case CMARK_NODE_LIST:
                return list(node, depth);
            case CMARK_NODE_CODE_BLOCK:
                return code_block(node);
            case CMARK_NODE_THEMATIC_BREAK:
                return node_of_type("horizontalRule");
            default:  // raw HTML
                return nullptr;
        }
    }

    /// Block content that must hold at least one block: an empty paragraph when there is none.
    Json blocks_or_paragraph(cmark_node* node, size_t depth) {
        Json content = blocks(node, depth);
        if (content.empty()) {
            budget_.spend();
            content.push_back(node_of_type("paragraph"));
        }
        return content;
    }

    Json list(cmark_node* node, size_t depth) {
        Json items = Json::array();
        for (cmark_node* item = cmark_node_first_child(node); item != nullptr;
             item = cmark_node_next(item)) {
            // A list item opens with a paragraph: an empty one when it starts with something else.
            Json content = blocks(item, depth + 1);
            if (content.empty() || content.front().at("type") != "paragraph") {
                budget_.spend();
                content.insert(content.begin(), node_of_type("paragraph"));
            }
            budget_.spend();
            items.push_back({{"type", "listItem"}, {"content", std::move(content)}});
        }
        if (cmark_node_get_list_type(node) == CMARK_ORDERED_LIST) {
            return {{"type", "orderedList"},
                    {"attrs", {{"start", cmark_node_get_list_start(node)}, {"type", nullptr}}},
                    {"content", std::move(items)}};
        }
        return {{"type", "bulletList"}, {"content", std::move(items)}};
    }

    static Json code_block(cmark_node* node) {
        std::string code(literal(node));
        if (code.empty() || code.back() != '\n') {
            code.push_back('\n');
        }
        return {{"type", "codeBlock"},
                {"attrs", {{"language", language(cmark_node_get_fence_info(node))}}},
                {"content", Json::array({Json{{"type", "text"}, {"text", std::move(code)}}})}};
    }

    /// The first word of a fence's info string ("js" in "```js title=x"), or null.
    static Json language(const char* info) {
        const std::string_view text = info == nullptr ? std::string_view() : info;
        size_t end = 0;
        while (end < text.size()) {
            size_t next = end;
            if (is_trimmed_whitespace(next_code_point(text, next))) {
                break;
            }
            end = next;
        }
        return end == 0 ? Json(nullptr) : Json(std::string(text.substr(0, end)));
    }

    Json text_block(Json block, cmark_node* node, size_t depth) {
        InlineContent content(budget_);
        inlines(node, Marks{}, depth, content);
        Json nodes = content.finish(mentions_);
        if (!nodes.empty()) {
            block["content"] = std::move(nodes);
        }
        return block;
    }

    void inlines(cmark_node* parent, const Marks& marks, size_t depth, InlineContent& out) {
        guard(depth);
        for (cmark_node* node = cmark_node_first_child(parent); node != nullptr;
             node = cmark_node_next(node)) {
            Marks inner = marks;
            switch (cmark_node_get_type(node)) {
                case CMARK_NODE_TEXT:
                case CMARK_NODE_SOFTBREAK:
                    out.add_text(
                        cmark_node_get_type(node) == CMARK_NODE_TEXT ? literal(node) : "\n", marks);
                    break;
                case CMARK_NODE_LINEBREAK:
                    out.add_hard_break(marks);
                    break;
                case CMARK_NODE_CODE:
                    inner.code = true;
                    out.add_text(literal(node), inner);
                    break;
                case CMARK_NODE_EMPH:
                    inner.italic = true;
                    inlines(node, inner, depth + 1, out);
                    break;
                case CMARK_NODE_STRONG:
                    inner.bold = true;
                    inlines(node, inner, depth + 1, out);
                    break;
                case CMARK_NODE_LINK:
                    inner.link = link_mark(node);
                    inlines(node, inner, depth + 1, out);
                    break;
                default:  // images and raw HTML
                    break;
            }
        }
    }

    /// The link mark of a link node, or null when its address is empty or not allowed.
    static Json link_mark(cmark_node* node) {
        const char* url = cmark_node_get_url(node);
        const std::string href = encode_href(url == nullptr ? "" : url);
        if (href.empty() || !is_allowed_link_href(href)) {
            return nullptr;
        }
        const char* title = cmark_node_get_title(node);
        return {{"type", "link"},
                {"attrs",
                 {{"href", href},
                  {"target", "_blank"},
                  {"rel", "noopener noreferrer nofollow"},
                  {"class", nullptr},
                  {"title", title == nullptr || *title == '\0' ? Json(nullptr) : Json(title)}}}};
    }

    MentionResolver mentions_;
    NodeBudget budget_;
};

/// Line endings as the Markdown renderer sees them: CRLF and lone CR become LF.
std::string normalize_line_endings(std::string_view markdown) {
    std::string normalized;
    normalized.reserve(markdown.size());
    for (size_t i = 0; i < markdown.size(); ++i) {
        if (markdown[i] != '\r') {
            normalized.push_back(markdown[i]);
        } else {
            normalized.push_back('\n');
            if (i + 1 < markdown.size() && markdown[i + 1] == '\n') {
                ++i;
            }
        }
    }
    return normalized;
}

}  // namespace

std::optional<Json> markdown_to_document(std::string_view markdown, const MentionLookup& mentions) {
    const std::string source = normalize_line_endings(markdown);
    const std::unique_ptr<cmark_node, decltype(&cmark_node_free)> root(
        cmark_parse_document(source.data(), source.size(), CMARK_OPT_DEFAULT), cmark_node_free);
    cmark_consolidate_text_nodes(root.get());
    try {
        Converter converter(mentions);
        Json content = converter.blocks(root.get(), 1);
        if (content.empty()) {
            content.push_back(node_of_type("paragraph"));
        }
        return Json{{"type", "doc"}, {"content", std::move(content)}};
    } catch (const TooLarge&) {
        return std::nullopt;
    }
}

}  // namespace loupe::reviews
