// libFuzzer entry point for the comment body parser. The first byte picks the form: even, the
// rest is a Markdown string (any bytes, invalid UTF-8 included); odd, the rest is parsed as
// JSON and passed as sent (a document, or any other value). Besides crashes, sanitizer reports
// and exceptions other than CommentBodyError, it checks that an accepted body:
// - is a valid document within every limit, whose text is document_text of it;
// - is accepted again as sent, unchanged (trimming and conversion are stable).

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "comments/comment_body.hpp"

namespace reviews = loupe::reviews;
using loupe::Json;

namespace {

[[noreturn]] void fail(const char* what) {
    std::fprintf(stderr, "comment body fuzz check failed: %s\n", what);
    std::abort();
}

// Users "a", "ab", "abc"...: short slugs starting with 'a'.
std::optional<reviews::MentionTarget> lookup(const std::string& slug) {
    if (slug.size() <= 3 && slug.front() == 'a') {
        return reviews::MentionTarget{"id-" + slug, slug};
    }
    return std::nullopt;
}

void check_accepted(const reviews::CommentBody& body) {
    if (reviews::check_document(body.doc) != reviews::DocumentCheck::valid) {
        fail("an accepted document is not valid");
    }
    if (reviews::document_text(body.doc) != body.text) {
        fail("text differs from document_text");
    }
    const reviews::DocumentStats stats = reviews::document_stats(body.doc);
    if (stats.characters > 2000 || stats.nodes > 300 || stats.depth > 12 ||
        body.doc.dump().size() > 40000) {
        fail("an accepted document is past a limit");
    }
    reviews::CommentBody again;
    try {
        again = reviews::parse_comment_body(body.doc, lookup);
    } catch (const reviews::CommentBodyError& error) {
        std::fprintf(stderr, "refused: %s\n", error.what());
        fail("an accepted document is refused when sent back");
    }
    if (again.doc != body.doc || again.text != body.text ||
        again.mentioned_user_ids != body.mentioned_user_ids) {
        fail("an accepted document changes when sent back");
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0) {
        return 0;
    }
    const std::string_view rest(reinterpret_cast<const char*>(data) + 1, size - 1);
    Json body;
    if (data[0] % 2 == 0) {
        body = std::string(rest);
    } else {
        body = Json::parse(rest, nullptr, false);
        if (body.is_discarded()) {
            return 0;
        }
    }
    try {
        check_accepted(reviews::parse_comment_body(body, lookup));
    } catch (const reviews::CommentBodyError& error) {
        const std::string_view message = error.what();
        if (message != reviews::kInvalidCommentBody && message != reviews::kEmptyComment &&
            message != reviews::kCommentTooLarge) {
            fail("a refusal with another message");
        }
    }
    if (reviews::is_single_emoji(rest) && rest.size() > 64) {
        fail("an emoji longer than any RGI emoji");
    }
    return 0;
}
