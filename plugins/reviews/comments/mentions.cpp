#include "mentions.hpp"

#include <string_view>

namespace loupe::reviews {

namespace {

constexpr size_t kMaxSlugLength = 48;
// A comment with more mentions than the node limit is too large, and so is one with more slugs
// than that: each slug is a mention node or at least two characters of text ("@a"), and a
// comment has at most 300 nodes and 2,000 characters. Past these bounds "@slug" stays text.
constexpr size_t kMaxMentions = 301;
constexpr size_t kMaxLookups = 301 + 1000;

bool is_ascii_alnum(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

bool is_slug_char(char c) {
    return is_ascii_alnum(c) || c == '-';
}

/// Whether a mention may start right after `c`: not inside a word, an address or a path.
bool is_boundary_before(char c) {
    static constexpr std::string_view kJoining = "_.+-/@\\";
    return static_cast<unsigned char>(c) < 0x80 && !is_ascii_alnum(c) &&
           kJoining.find(c) == std::string_view::npos;
}

/// Whether a mention may end right before `c`: not glued to more of a word or an address.
bool is_boundary_after(char c) {
    return static_cast<unsigned char>(c) < 0x80 && !is_slug_char(c) && c != '_' && c != '@';
}

bool links_or_codes(const Json& node) {
    const auto marks = node.find("marks");
    if (marks == node.end()) {
        return false;
    }
    for (const Json& mark : *marks) {
        const auto& type = mark.at("type").get_ref<const std::string&>();
        if (type == "link" || type == "code") {
            return true;
        }
    }
    return false;
}

std::string lowercase(std::string_view text) {
    std::string lower(text);
    for (char& c : lower) {
        if (c >= 'A' && c <= 'Z') {
            c = static_cast<char>(c - 'A' + 'a');
        }
    }
    return lower;
}

/// Splits one text node at its mentions, appending the pieces to `out`. `before` and `after`
/// are the characters around the node in its block ('\0' at an edge or next to a non-text
/// node, which counts as a boundary).
void split_text(const Json& node, char before, char after, MentionResolver& resolver, Json& out) {
    const auto& text = node.at("text").get_ref<const std::string&>();
    size_t piece_start = 0;
    const auto emit_text = [&](size_t end) {
        if (end > piece_start) {
            Json piece = node;
            piece["text"] = text.substr(piece_start, end - piece_start);
            out.push_back(std::move(piece));
        }
    };
    for (size_t at = text.find('@'); at != std::string::npos; at = text.find('@', at + 1)) {
        const char previous = at == 0 ? before : text[at - 1];
        if (previous != '\0' && !is_boundary_before(previous)) {
            continue;
        }
        size_t run_end = at + 1;
        while (run_end < text.size() && is_slug_char(text[run_end])) {
            ++run_end;
        }
        size_t slug_end = run_end;
        while (slug_end > at + 1 && text[slug_end - 1] == '-') {
            --slug_end;
        }
        const char next = run_end < text.size() ? text[run_end] : after;
        const size_t length = slug_end - at - 1;
        if (length == 0 || length > kMaxSlugLength || !is_ascii_alnum(text[at + 1]) ||
            (slug_end == run_end && next != '\0' && !is_boundary_after(next))) {
            continue;
        }
        const auto target =
            resolver.resolve(lowercase(std::string_view(text).substr(at + 1, length)));
        if (!target) {
            continue;
        }
        emit_text(at);
        Json mention = {{"type", "mention"},
                        {"attrs", {{"id", target->id}, {"label", target->label}}}};
        if (const auto marks = node.find("marks"); marks != node.end()) {
            mention["marks"] = *marks;
        }
        out.push_back(std::move(mention));
        piece_start = slug_end;
        at = slug_end - 1;
    }
    emit_text(text.size());
}

/// The last (`last`) or first character of an inline node when it is text, else '\0'.
char edge_char(const Json& node, bool last) {
    const auto text = node.find("text");
    if (text == node.end()) {
        return '\0';
    }
    const auto& value = text->get_ref<const std::string&>();
    return last ? value.back() : value.front();
}

}  // namespace

std::optional<MentionTarget> MentionResolver::resolve(const std::string& slug) {
    if (mentions_ >= kMaxMentions) {
        return std::nullopt;
    }
    auto known = resolved_.find(slug);
    if (known == resolved_.end()) {
        if (resolved_.size() >= kMaxLookups) {
            return std::nullopt;
        }
        known = resolved_.emplace(slug, lookup_(slug)).first;
    }
    if (known->second) {
        ++mentions_;
    }
    return known->second;
}

Json link_mentions(const Json& inlines, MentionResolver& resolver) {
    Json out = Json::array();
    for (size_t i = 0; i < inlines.size(); ++i) {
        const Json& node = inlines[i];
        if (!node.contains("text") || links_or_codes(node)) {
            out.push_back(node);
            continue;
        }
        const char before = i == 0 ? '\0' : edge_char(inlines[i - 1], true);
        const char after = i + 1 == inlines.size() ? '\0' : edge_char(inlines[i + 1], false);
        split_text(node, before, after, resolver, out);
    }
    return out;
}

}  // namespace loupe::reviews
