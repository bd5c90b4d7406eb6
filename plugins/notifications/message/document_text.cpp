#include "message/document_text.hpp"

namespace loupe::notifications {
namespace {

// Deep documents are refused when stored (depth 12); this bound only keeps a hostile event from
// exhausting the stack.
constexpr int deepest_node = 64;

void append_text(const Json& node, std::string& text, int depth) {
    if (!node.is_object() || depth > deepest_node) {
        return;
    }
    const auto type = node.value("type", std::string());
    if (type == "text") {
        text += node.value("text", std::string());
        return;
    }
    if (type == "hardBreak") {
        text += '\n';
        return;
    }
    if (type == "mention") {
        const auto attrs = node.value("attrs", Json::object());
        text += "@" + (attrs.is_object() ? attrs.value("label", std::string()) : std::string());
        return;
    }
    const auto content = node.find("content");
    if (content != node.end() && content->is_array()) {
        for (const auto& child : *content) {
            append_text(child, text, depth + 1);
        }
    }
    // Every block but the document ends its line.
    if (type != "doc" && (text.empty() || text.back() != '\n')) {
        text += '\n';
    }
}

}  // namespace

std::string document_plain_text(const Json& doc) {
    std::string text;
    append_text(doc, text, 0);
    while (!text.empty() && text.back() == '\n') {
        text.pop_back();
    }
    return text;
}

}  // namespace loupe::notifications
