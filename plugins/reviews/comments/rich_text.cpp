#include "rich_text.hpp"

#include <algorithm>
#include <array>
#include <cstdint>

#include "unicode.hpp"

namespace loupe::reviews {

namespace {

// Recursion guard: a document nested this deep is refused without being walked any further
// (the depth limit of a comment is far below it).
constexpr size_t kMaxDocumentNesting = 200;

enum class Group { none, block, inline_ };
enum class Content { none, blocks, inlines, list_items, list_item, code_text };

struct NodeSpec {
    std::string_view name;
    Group group;
    Content content;
    std::array<std::string_view, 2> attrs;  // the attribute names it accepts
};

constexpr std::array<NodeSpec, 12> kNodes = {{
    {"doc", Group::none, Content::blocks, {}},
    {"paragraph", Group::block, Content::inlines, {}},
    {"heading", Group::block, Content::inlines, {"level"}},
    {"blockquote", Group::block, Content::blocks, {}},
    {"bulletList", Group::block, Content::list_items, {}},
    {"orderedList", Group::block, Content::list_items, {"start", "type"}},
    {"listItem", Group::none, Content::list_item, {}},
    {"codeBlock", Group::block, Content::code_text, {"language"}},
    {"horizontalRule", Group::block, Content::none, {}},
    {"text", Group::inline_, Content::none, {}},
    {"hardBreak", Group::inline_, Content::none, {}},
    {"mention", Group::inline_, Content::none, {"id", "label"}},
}};

// In the schema's rank order; code excludes every other mark.
constexpr std::array<std::string_view, 6> kMarks = {"link",   "bold",   "code",
                                                    "italic", "strike", "underline"};
constexpr std::array<std::string_view, 5> kLinkAttrs = {"href", "target", "rel", "class", "title"};
constexpr int64_t kMaxHeadingLevel = 6;
constexpr int64_t kMaxListStart = 999'999'999;  // nine digits, as Markdown allows

struct Invalid {};
struct TooDeep {};

void require(bool condition) {
    if (!condition) {
        throw Invalid{};
    }
}

bool is_text(const Json& value) {
    return value.is_string() && is_valid_utf8(value.get_ref<const std::string&>());
}

bool is_text_or_null(const Json& value) {
    return value.is_null() || is_text(value);
}

/// Whether `value` is a JSON integer (not 1.0) within [low, high].
bool is_integer_in(const Json& value, int64_t low, int64_t high) {
    if (value.is_number_unsigned()) {
        return value.get<uint64_t>() <= static_cast<uint64_t>(high) &&
               static_cast<int64_t>(value.get<uint64_t>()) >= low;
    }
    return value.is_number_integer() && value.get<int64_t>() >= low && value.get<int64_t>() <= high;
}

/// The optional member `key` of a node or mark: absent and null both mean "none".
const Json* optional_member(const Json& object, const char* key) {
    const auto found = object.find(key);
    return found == object.end() || found->is_null() ? nullptr : &*found;
}

const NodeSpec& node_spec(const Json& node) {
    const auto type = node.find("type");
    require(type != node.end() && type->is_string());
    const auto& name = type->get_ref<const std::string&>();
    const auto spec = std::find_if(kNodes.begin(), kNodes.end(),
                                   [&](const NodeSpec& s) { return s.name == name; });
    require(spec != kNodes.end());
    return *spec;
}

void check_node_attrs(const NodeSpec& spec, const Json* attrs) {
    if (attrs == nullptr) {
        require(spec.name != "mention");  // a mention is nothing without the user it names
        return;
    }
    require(attrs->is_object());
    for (const auto& [key, value] : attrs->items()) {
        require(std::find(spec.attrs.begin(), spec.attrs.end(), key) != spec.attrs.end());
        if (key == "level") {
            require(is_integer_in(value, 1, kMaxHeadingLevel));
        } else if (key == "start") {
            require(is_integer_in(value, 0, kMaxListStart));
        } else if (key == "id") {
            require(is_text(value) && !value.get_ref<const std::string&>().empty());
        } else {
            require(is_text_or_null(value));
        }
    }
    if (spec.name == "mention") {
        require(attrs->contains("id"));
    }
}

/// Checks a mark and returns its rank.
size_t check_mark(const Json& mark) {
    require(mark.is_object());
    for (const auto& [key, value] : mark.items()) {
        require(key == "type" || key == "attrs");
    }
    const auto type = mark.find("type");
    require(type != mark.end() && type->is_string());
    const auto rank = std::find(kMarks.begin(), kMarks.end(), type->get_ref<const std::string&>());
    require(rank != kMarks.end());
    const Json* attrs = optional_member(mark, "attrs");
    if (attrs != nullptr) {
        require(attrs->is_object());
        for (const auto& [key, value] : attrs->items()) {
            require(*rank == "link" &&
                    std::find(kLinkAttrs.begin(), kLinkAttrs.end(), key) != kLinkAttrs.end() &&
                    is_text_or_null(value));
            if (key == "href" && value.is_string()) {
                require(is_allowed_link_href(value.get_ref<const std::string&>()));
            }
        }
    }
    return static_cast<size_t>(rank - kMarks.begin());
}

void check_marks(const Json* marks, bool allowed) {
    if (marks == nullptr) {
        return;
    }
    require(marks->is_array());
    if (marks->empty()) {
        return;
    }
    require(allowed);
    std::array<bool, kMarks.size()> seen{};
    for (const Json& mark : *marks) {
        const size_t rank = check_mark(mark);
        require(!seen[rank]);
        seen[rank] = true;
    }
    require(!seen[2] || marks->size() == 1);  // code goes with no other mark
}

const NodeSpec& check_node(const Json& node, size_t depth, bool marks_allowed);

void check_content(const NodeSpec& spec, const Json* content, size_t depth) {
    if (content == nullptr) {
        require(spec.content == Content::none || spec.content == Content::inlines ||
                spec.content == Content::code_text);
        return;
    }
    require(content->is_array());
    if (spec.content == Content::none) {
        require(content->empty());
        return;
    }
    const bool needs_one = spec.content == Content::blocks || spec.content == Content::list_items ||
                           spec.content == Content::list_item;
    require(!needs_one || !content->empty());
    size_t index = 0;
    for (const Json& child : *content) {
        const NodeSpec& child_spec = check_node(child, depth + 1, spec.content == Content::inlines);
        switch (spec.content) {
            case Content::blocks:
                require(child_spec.group == Group::block);
                break;
            case Content::inlines:
                require(child_spec.group == Group::inline_);
                break;
            case Content::list_items:
                require(child_spec.name == "listItem");
                break;
            case Content::list_item:
                require(index == 0 ? child_spec.name == "paragraph"
                                   : child_spec.group == Group::block);
                break;
            case Content::code_text:
                require(child_spec.name == "text");
                break;
            case Content::none:
                break;
        }
        ++index;
    }
}

const NodeSpec& check_node(const Json& node, size_t depth, bool marks_allowed) {
    if (depth > kMaxDocumentNesting) {
        throw TooDeep{};
    }
    require(node.is_object());
    const NodeSpec& spec = node_spec(node);
    const bool is_text_node = spec.name == "text";
    for (const auto& [key, value] : node.items()) {
        require(key == "type" || key == "marks" ||
                (is_text_node ? key == "text" : key == "attrs" || key == "content"));
    }
    check_marks(optional_member(node, "marks"), marks_allowed);
    if (is_text_node) {
        const auto text = node.find("text");
        require(text != node.end() && is_text(*text) &&
                !text->get_ref<const std::string&>().empty());
        return spec;
    }
    check_node_attrs(spec, optional_member(node, "attrs"));
    check_content(spec, optional_member(node, "content"), depth);
    return spec;
}

void collect_text(const Json& node, std::string& text) {
    if (const auto found = node.find("text"); found != node.end()) {
        text += found->get_ref<const std::string&>();
    }
    if (const Json* content = optional_member(node, "content")) {
        for (const Json& child : *content) {
            collect_text(child, text);
        }
    }
}

void collect_stats(const Json& node, size_t depth, DocumentStats& stats) {
    ++stats.nodes;
    stats.depth = std::max(stats.depth, depth);
    if (const auto found = node.find("text"); found != node.end()) {
        stats.characters += utf16_length(found->get_ref<const std::string&>());
    }
    if (const Json* content = optional_member(node, "content")) {
        for (const Json& child : *content) {
            collect_stats(child, depth + 1, stats);
        }
    }
}

// What browsers strip from an address before reading its scheme.
bool is_ignored_in_href(char32_t c) {
    return c <= 0x20 || c == 0xA0 || c == 0x1680 || c == 0x180E || (c >= 0x2000 && c <= 0x2029) ||
           c == 0x205F || c == 0x3000;
}

bool is_ascii_letter(char32_t c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

bool is_ascii_digit(char32_t c) {
    return c >= '0' && c <= '9';
}

}  // namespace

DocumentCheck check_document(const Json& doc) {
    try {
        return check_node(doc, 1, false).name == "doc" ? DocumentCheck::valid
                                                       : DocumentCheck::invalid;
    } catch (const Invalid&) {
        return DocumentCheck::invalid;
    } catch (const TooDeep&) {
        return DocumentCheck::too_deep;
    }
}

std::string document_text(const Json& doc) {
    std::string text;
    if (check_document(doc) == DocumentCheck::valid) {
        collect_text(doc, text);
    }
    return text;
}

DocumentStats document_stats(const Json& doc) {
    DocumentStats stats;
    collect_stats(doc, 1, stats);
    return stats;
}

bool is_allowed_link_href(std::string_view href) {
    if (!is_valid_utf8(href)) {
        return false;
    }
    std::u32string address;
    for (size_t pos = 0; pos < href.size();) {
        const char32_t c = next_code_point(href, pos);
        if (!is_ignored_in_href(c)) {
            address.push_back(c);
        }
    }
    // Relative addresses ("/path", "#anchor", "../x") start with something other than a letter.
    if (address.empty() || !is_ascii_letter(address.front())) {
        return true;
    }
    static constexpr std::array<std::u32string_view, 10> kSchemes = {
        U"http", U"https", U"ftp", U"ftps", U"mailto", U"tel", U"callto", U"sms", U"cid", U"xmpp"};
    const auto scheme_end = std::find_if(address.begin(), address.end(), [](char32_t c) {
        return !(is_ascii_letter(c) || is_ascii_digit(c) || c == '+' || c == '.' || c == '-');
    });
    if (scheme_end == address.end() || *scheme_end != ':') {
        return true;  // no scheme at all: "example.com/page"
    }
    // The editor's own check reads a name with a digit past its first character as no scheme.
    if (std::any_of(address.begin() + 1, scheme_end, is_ascii_digit)) {
        return true;
    }
    std::u32string scheme(address.begin(), scheme_end);
    std::transform(scheme.begin(), scheme.end(), scheme.begin(),
                   [](char32_t c) { return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c; });
    return std::find(kSchemes.begin(), kSchemes.end(), scheme) != kSchemes.end();
}

}  // namespace loupe::reviews
