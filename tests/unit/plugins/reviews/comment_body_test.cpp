// The comment body library: Markdown and rich-text bodies, trimming, emptiness, the size limits
// (each at exactly the limit and one over), mentions and plain text.
#include "comments/comment_body.hpp"

#include <doctest/doctest.h>

#include <map>
#include <string>
#include <vector>

namespace loupe::reviews {
namespace {

// Users of the account: "alice" (id 17) and "bob-smith" (id 23).
std::optional<MentionTarget> account_user(const std::string& slug) {
    if (slug == "alice") {
        return MentionTarget{"17", "alice"};
    }
    if (slug == "bob-smith") {
        return MentionTarget{"23", "bob-smith"};
    }
    return std::nullopt;
}

CommentBody parse(const Json& body) {
    return parse_comment_body(body, account_user);
}

/// The stored document of a Markdown body.
Json markdown(const std::string& text) {
    return parse(Json(text)).doc;
}

/// The refusal message for `body`, or "accepted".
std::string outcome(const Json& body) {
    try {
        parse(body);
        return "accepted";
    } catch (const CommentBodyError& error) {
        return error.what();
    }
}

const std::string kInvalid(kInvalidCommentBody);
const std::string kEmpty(kEmptyComment);
const std::string kTooLarge(kCommentTooLarge);
const std::string kAccepted("accepted");

/// A document whose blocks are written as JSON.
Json doc(const std::string& blocks) {
    return Json::parse(R"({"type":"doc","content":[)" + blocks + "]}");
}

/// A paragraph of one text node, as JSON text.
std::string para(const std::string& text) {
    return R"({"type":"paragraph","content":[{"type":"text","text":)" + Json(text).dump() + "}]}";
}

const std::string kLinkAttrs =
    R"("target":"_blank","rel":"noopener noreferrer nofollow","class":null)";

TEST_CASE("comment body: Markdown becomes the rich-text document") {
    const CommentBody body = parse(
        "# Title\n\nSome **bold**, *it*, `code` and [a link](https://x.y \"T\"), @alice!\n\n"
        "- one\n- two\n\n3. three\n4. four\n\n> quoted\n\n```js title=x\nlet a = 1;\n```\n\n"
        "a\\\nb\n\n---\n");
    CHECK(body.doc == doc(R"(
        {"type":"heading","attrs":{"level":1},"content":[{"type":"text","text":"Title"}]},
        {"type":"paragraph","content":[
          {"type":"text","text":"Some "},
          {"type":"text","text":"bold","marks":[{"type":"bold"}]},
          {"type":"text","text":", "},
          {"type":"text","text":"it","marks":[{"type":"italic"}]},
          {"type":"text","text":", "},
          {"type":"text","text":"code","marks":[{"type":"code"}]},
          {"type":"text","text":" and "},
          {"type":"text","text":"a link","marks":[{"type":"link","attrs":{"href":"https://x.y",)" +
                          kLinkAttrs + R"(,"title":"T"}}]},
          {"type":"text","text":", "},
          {"type":"mention","attrs":{"id":"17","label":"alice"}},
          {"type":"text","text":"!"}]},
        {"type":"bulletList","content":[
          {"type":"listItem","content":[)" +
                          para("one") + R"(]},
          {"type":"listItem","content":[)" +
                          para("two") + R"(]}]},
        {"type":"orderedList","attrs":{"start":3,"type":null},"content":[
          {"type":"listItem","content":[)" +
                          para("three") + R"(]},
          {"type":"listItem","content":[)" +
                          para("four") + R"(]}]},
        {"type":"blockquote","content":[)" +
                          para("quoted") + R"(]},
        {"type":"codeBlock","attrs":{"language":"js"},"content":[{"type":"text","text":"let a = 1;\n"}]},
        {"type":"paragraph","content":[{"type":"text","text":"a"},{"type":"hardBreak"},
                                       {"type":"text","text":"b"}]},
        {"type":"horizontalRule"})"));
    CHECK(body.text == "TitleSome bold, it, code and a link, !onetwothreefourquotedlet a = 1;\nab");
    CHECK(body.mentioned_user_ids == std::vector<std::string>{"17"});
}

TEST_CASE("comment body: Markdown marks come in the schema's order; code excludes the others") {
    CHECK(markdown("***both*** [**in** `c`](http://u)") ==
          doc(R"(
        {"type":"paragraph","content":[
          {"type":"text","text":"both","marks":[{"type":"bold"},{"type":"italic"}]},
          {"type":"text","text":" "},
          {"type":"text","text":"in","marks":[{"type":"link","attrs":{"href":"http://u",)" +
              kLinkAttrs + R"(,"title":null}},{"type":"bold"}]},
          {"type":"text","text":" ","marks":[{"type":"link","attrs":{"href":"http://u",)" +
              kLinkAttrs + R"(,"title":null}}]},
          {"type":"text","text":"c","marks":[{"type":"code"}]}]})"));
    CHECK(markdown("a *b  \nc* d") == doc(R"(
        {"type":"paragraph","content":[
          {"type":"text","text":"a "},
          {"type":"text","text":"b","marks":[{"type":"italic"}]},
          {"type":"hardBreak","marks":[{"type":"italic"}]},
          {"type":"text","text":"c","marks":[{"type":"italic"}]},
          {"type":"text","text":" d"}]})"));
}

TEST_CASE("comment body: Markdown whitespace collapses as in HTML, code blocks keep theirs") {
    CHECK(markdown("a  b\nc   `x   y`") == doc(R"(
        {"type":"paragraph","content":[{"type":"text","text":"a b c "},
                                       {"type":"text","text":"x y","marks":[{"type":"code"}]}]})"));
    CHECK(markdown("x &amp; &nbsp;y&copy;") == doc(para("x & \u00A0y\u00A9")));
    CHECK(
        markdown("\tcode\n\t  more") ==
        doc(R"({"type":"codeBlock","attrs":{"language":null},"content":[{"type":"text","text":"code\n  more\n"}]})"));
    CHECK(
        markdown("```\n```\n\nx") ==
        doc(R"({"type":"codeBlock","attrs":{"language":null},"content":[{"type":"text","text":"\n"}]},)" +
            para("x")));
    CHECK(markdown("a\r\nb\rc") == doc(para("a b c")));
}

TEST_CASE("comment body: Markdown structure the schema lacks is dropped or filled in") {
    // Images and raw HTML are dropped, text around them is kept.
    CHECK(markdown("![alt](http://i.png) img") == doc(para("img")));
    CHECK(markdown("x<!-- c -->y <b>z</b>") == doc(para("xy z")));
    CHECK(markdown("<div>\nblock\n</div>\n\nafter") == doc(para("after")));
    // A list item opens with a paragraph and a quote holds a block, empty ones if need be.
    CHECK(markdown("- # h\n-\n\n>\n\nend") == doc(R"(
        {"type":"bulletList","content":[
          {"type":"listItem","content":[{"type":"paragraph"},
            {"type":"heading","attrs":{"level":1},"content":[{"type":"text","text":"h"}]}]},
          {"type":"listItem","content":[{"type":"paragraph"}]}]},
        {"type":"blockquote","content":[{"type":"paragraph"}]},)" +
                                                  para("end")));
    CHECK(markdown("0. z\n\n   - n") == doc(R"(
        {"type":"orderedList","attrs":{"start":0,"type":null},"content":[
          {"type":"listItem","content":[)" + para("z") +
                                            R"(,
            {"type":"bulletList","content":[{"type":"listItem","content":[)" +
                                            para("n") + R"(]}]}]}]})"));
}

TEST_CASE("comment body: Markdown links keep allowed addresses only, percent-encoded") {
    const auto linked = [](const std::string& text, const std::string& href) {
        return doc(R"({"type":"paragraph","content":[{"type":"text","text":")" + text +
                   R"(","marks":[{"type":"link","attrs":{"href":)" + Json(href).dump() + "," +
                   kLinkAttrs + R"(,"title":null}}]}]})");
    };
    CHECK(markdown("[x](</a b>)") == linked("x", "/a%20b"));
    CHECK(markdown("[x](https://e.org/\xC3\xA9?q=1%20#f)") ==
          linked("x", "https://e.org/%C3%A9?q=1%20#f"));
    CHECK(markdown("<https://a.b>") == linked("https://a.b", "https://a.b"));
    CHECK(markdown("<me@x.org>") == linked("me@x.org", "mailto:me@x.org"));
    CHECK(markdown("[x](mailto:me@x.org)") == linked("x", "mailto:me@x.org"));
    CHECK(markdown("[x](#top)") == linked("x", "#top"));
    CHECK(markdown("[x](javascript:alert(1))") == doc(para("x")));
    CHECK(markdown("[x](JavaScript:alert(1))") == doc(para("x")));
    CHECK(markdown("[x](data:text/html,hi)") == doc(para("x")));
    CHECK(markdown("[x]()") == doc(para("x")));
}

TEST_CASE("comment body: @slug mentions resolve to users of the account") {
    SUBCASE("known users become mention nodes, unknown slugs stay text") {
        const CommentBody body = parse("@Alice and @bob-smith, not @carol nor @alice again");
        CHECK(body.doc == doc(R"({"type":"paragraph","content":[
            {"type":"mention","attrs":{"id":"17","label":"alice"}},
            {"type":"text","text":" and "},
            {"type":"mention","attrs":{"id":"23","label":"bob-smith"}},
            {"type":"text","text":", not @carol nor "},
            {"type":"mention","attrs":{"id":"17","label":"alice"}},
            {"type":"text","text":" again"}]})"));
        CHECK(body.mentioned_user_ids == std::vector<std::string>{"17", "23"});
        // A stored document gives the same mentions again (what comment.created carries).
        CHECK(mentioned_user_ids(body.doc) == body.mentioned_user_ids);
        CHECK(body.text == " and , not @carol nor  again");
    }
    SUBCASE("addresses, code, links and glued words are not mentions") {
        for (const char* text : {"me@alice.org", "`@alice`", "[@alice](https://x.y)", "@alice_x",
                                 "@alicex", "a.@alice", "@alice@x", "@-alice"}) {
            CAPTURE(text);
            const CommentBody body = parse(text);
            CHECK(body.mentioned_user_ids.empty());
        }
    }
    SUBCASE("punctuation and marks around a mention") {
        CHECK(markdown("(@alice), **@alice-**") == doc(R"({"type":"paragraph","content":[
            {"type":"text","text":"("},
            {"type":"mention","attrs":{"id":"17","label":"alice"}},
            {"type":"text","text":"), "},
            {"type":"mention","attrs":{"id":"17","label":"alice"},"marks":[{"type":"bold"}]},
            {"type":"text","text":"-","marks":[{"type":"bold"}]}]})"));
    }
    SUBCASE("a mention alone is a comment, with no text") {
        const CommentBody body = parse("@alice");
        CHECK(body.text.empty());
        CHECK(body.mentioned_user_ids == std::vector<std::string>{"17"});
    }
    SUBCASE("the lookup is asked once per slug") {
        std::map<std::string, int> asked;
        const MentionLookup counting = [&](const std::string& slug) {
            ++asked[slug];
            return account_user(slug);
        };
        parse_comment_body(Json("@alice @alice @zed @zed\n\n@alice"), counting);
        CHECK(asked == std::map<std::string, int>{{"alice", 1}, {"zed", 1}});
    }
}

TEST_CASE("comment body: a rich-text document is accepted as sent") {
    const Json sent = doc(R"(
        {"type":"heading","attrs":{"level":2},"content":[{"type":"text","text":"Hi "},
          {"type":"mention","attrs":{"id":"42","label":"dan"}}]},
        {"type":"paragraph","content":[
          {"type":"text","text":"all","marks":[{"type":"bold"},{"type":"italic"},{"type":"strike"},
                                               {"type":"underline"}]},
          {"type":"hardBreak"},
          {"type":"text","text":"x","marks":[{"type":"link","attrs":{"href":"https://e.org"}}]},
          {"type":"text","text":"y","marks":[{"type":"code"}]}]},
        {"type":"blockquote","content":[{"type":"paragraph"}]},
        {"type":"orderedList","attrs":{"start":1},"content":[{"type":"listItem","content":[
          {"type":"paragraph","content":[]},
          {"type":"codeBlock","attrs":{"language":"cpp"},"content":[{"type":"text","text":"int x;"}]},
          {"type":"bulletList","content":[{"type":"listItem","content":[)" +
                          para("deep") + R"(]}]}]}]},
        {"type":"horizontalRule"},
        {"type":"codeBlock"})");
    const CommentBody body = parse(sent);
    CHECK(body.doc == sent);
    CHECK(body.text == "Hi allxyint x;deep");
    CHECK(body.mentioned_user_ids == std::vector<std::string>{"42"});
    CHECK(document_text(body.doc) == body.text);
}

TEST_CASE("comment body: invalid documents and values are refused") {
    const std::vector<std::string> invalid_blocks = {
        R"({"type":"table"})",  // unknown node
        R"({"type":"paragraph","content":[{"type":"text","text":"x","marks":[{"type":"sup"}]}]})",
        R"({"type":"heading","attrs":{"level":7},"content":[]})",  // wrong attrs
        R"({"type":"heading","attrs":{"level":"2"},"content":[]})",
        R"({"type":"heading","attrs":{"level":2.0},"content":[]})",
        R"({"type":"heading","attrs":{"size":2},"content":[]})",  // unknown attr
        R"({"type":"orderedList","attrs":{"start":-1},"content":[{"type":"listItem","content":[{"type":"paragraph"}]}]})",
        R"({"type":"codeBlock","attrs":{"language":5}})",
        R"({"type":"paragraph","attrs":{"align":"left"}})",
        R"({"type":"paragraph","content":[{"type":"text"}]})",  // text without text
        R"({"type":"paragraph","content":[{"type":"text","text":""}]})",
        R"({"type":"paragraph","content":[{"type":"text","text":7}]})",  // non-string text
        R"({"type":"paragraph","content":[{"type":"text","text":"x","content":[]}]})",
        R"({"type":"paragraph","content":[{"type":"paragraph"}]})",  // wrong content
        R"({"type":"paragraph","content":{"type":"text","text":"x"}})",
        R"({"type":"paragraph","content":[null]})",
        R"({"type":"bulletList","content":[]})",
        R"({"type":"bulletList","content":[{"type":"paragraph"}]})",
        R"({"type":"listItem","content":[{"type":"paragraph"}]})",
        R"({"type":"bulletList","content":[{"type":"listItem","content":[{"type":"bulletList","content":[]}]}]})",
        R"({"type":"bulletList","content":[{"type":"listItem","content":[{"type":"codeBlock"}]}]})",
        R"({"type":"blockquote","content":[]})",
        R"({"type":"blockquote"})",
        R"({"type":"horizontalRule","content":[{"type":"paragraph"}]})",
        R"({"type":"text","text":"top-level text"})",
        R"({"type":"doc","content":[{"type":"paragraph"}]})",
        R"({"type":"codeBlock","content":[{"type":"text","text":"x","marks":[{"type":"bold"}]}]})",
        R"({"type":"codeBlock","content":[{"type":"hardBreak"}]})",
        R"({"type":"paragraph","marks":[{"type":"bold"}]})",  // marks on a block
        R"({"type":"paragraph","content":[{"type":"text","text":"x","marks":[{"type":"bold"},{"type":"bold"}]}]})",
        R"({"type":"paragraph","content":[{"type":"text","text":"x","marks":[{"type":"code"},{"type":"bold"}]}]})",
        R"({"type":"paragraph","content":[{"type":"text","text":"x","marks":{"type":"bold"}}]})",
        R"({"type":"paragraph","content":[{"type":"text","text":"x","marks":[{"type":"bold","attrs":{"x":1}}]}]})",
        R"j({"type":"paragraph","content":[{"type":"text","text":"x","marks":[{"type":"link","attrs":{"href":"javascript:alert(1)"}}]}]})j",
        R"({"type":"paragraph","content":[{"type":"text","text":"x","marks":[{"type":"link","attrs":{"href":" JaVa\tScript:x"}}]}]})",
        R"({"type":"paragraph","content":[{"type":"text","text":"x","marks":[{"type":"link","attrs":{"href":7}}]}]})",
        R"({"type":"paragraph","content":[{"type":"mention"}]})",
        R"({"type":"paragraph","content":[{"type":"mention","attrs":{"id":""}}]})",
        R"({"type":"paragraph","content":[{"type":"mention","attrs":{"id":17}}]})",
        R"({"type":"paragraph","content":[{"type":"text","text":"x"}],"extra":1})",  // unknown key
        R"({"type":7})",
        R"({"content":[]})",
    };
    for (const std::string& blocks : invalid_blocks) {
        CAPTURE(blocks);
        CHECK(outcome(doc(para("ok") + "," + blocks)) == kInvalid);
    }
    CHECK(outcome(Json::parse(R"({"type":"paragraph","content":[{"type":"text","text":"x"}]})")) ==
          kInvalid);
    CHECK(outcome(Json::parse(R"({"type":"doc","content":[]})")) == kInvalid);
    CHECK(outcome(Json::parse(R"({"type":"doc"})")) == kInvalid);
    CHECK(outcome(Json::object()) == kInvalid);
    for (const Json& value : {Json(nullptr), Json(7), Json(true), Json::array({"hi"})}) {
        CAPTURE(value.dump());
        CHECK(outcome(value) == kInvalid);
    }
}

TEST_CASE("comment body: invalid UTF-8 anywhere is an invalid body") {
    const std::vector<std::string> bad = {"\xFF", "a\xC3", "\xED\xA0\x80", "\xC0\xAF",
                                          "\xF4\x90\x80\x80"};
    for (const std::string& bytes : bad) {
        CAPTURE(bytes.size());
        CHECK(outcome(Json("hello " + bytes)) == kInvalid);
        Json sent = doc(para("placeholder"));
        sent["content"][0]["content"][0]["text"] = "hello " + bytes;
        CHECK(outcome(sent) == kInvalid);
        Json linked = doc(
            R"({"type":"paragraph","content":[{"type":"text","text":"x","marks":[{"type":"link","attrs":{"href":"h"}}]}]})");
        linked["content"][0]["content"][0]["marks"][0]["attrs"]["title"] = bytes;
        CHECK(outcome(linked) == kInvalid);
    }
}

TEST_CASE("comment body: blank paragraphs and boundary line breaks are trimmed") {
    const CommentBody body = parse(doc(R"(
        {"type":"paragraph"},
        {"type":"paragraph","content":[{"type":"text","text":" \u00A0"},{"type":"hardBreak"}]},
        {"type":"paragraph","content":[{"type":"hardBreak"},{"type":"hardBreak"},
                                       {"type":"text","text":"first"},{"type":"hardBreak"}]},
        {"type":"paragraph"},
        {"type":"paragraph","content":[{"type":"hardBreak"},{"type":"text","text":"last"},
                                       {"type":"hardBreak"}]},
        {"type":"paragraph","content":[]})"));
    CHECK(body.doc == doc(R"(
        {"type":"paragraph","content":[{"type":"text","text":"first"},{"type":"hardBreak"}]},
        {"type":"paragraph"},
        {"type":"paragraph","content":[{"type":"hardBreak"},{"type":"text","text":"last"}]})"));
    // One paragraph: breaks trimmed at both ends; other blocks are never trimmed.
    CHECK(
        parse(
            doc(R"({"type":"paragraph","content":[{"type":"hardBreak"},{"type":"text","text":"x"},{"type":"hardBreak"}]})"))
            .doc == doc(para("x")));
    const Json quoted =
        doc(R"({"type":"blockquote","content":[{"type":"paragraph"},)" + para("q") + "]}");
    CHECK(parse(quoted).doc == quoted);
    CHECK(markdown("\n\n   hello  \n\n\n") == doc(para("hello")));
}

TEST_CASE("comment body: a comment of nothing but whitespace is empty") {
    for (const char* text : {"", " ", "\n\n\t", "&nbsp;", "  \n  ", "![only an image](x.png)",
                             "<p>raw html</p>", "---", "> "}) {
        CAPTURE(text);
        CHECK(outcome(Json(text)) == kEmpty);
    }
    CHECK(outcome(doc(R"({"type":"paragraph"})")) == kEmpty);
    CHECK(
        outcome(doc(
            R"({"type":"paragraph","content":[{"type":"hardBreak"},{"type":"text","text":"\u3000\u2028\uFEFF"}]})")) ==
        kEmpty);
    CHECK(
        outcome(doc(
            R"({"type":"horizontalRule"},{"type":"blockquote","content":[{"type":"paragraph"}]})")) ==
        kEmpty);
    CHECK(outcome(doc(R"({"type":"codeBlock","content":[{"type":"text","text":"  \n "}]})")) ==
          kEmpty);
    CHECK(outcome(Json("\u200B")) == kAccepted);  // a zero-width space is not whitespace to trim()
    CHECK(
        outcome(doc(R"({"type":"paragraph","content":[{"type":"mention","attrs":{"id":"9"}}]})")) ==
        kAccepted);
}

TEST_CASE("comment body: 2,000 characters of text, counted in UTF-16 code units") {
    CHECK(outcome(Json(std::string(2000, 'a'))) == kAccepted);
    CHECK(outcome(Json(std::string(2001, 'a'))) == kTooLarge);
    std::string emoji;
    for (int i = 0; i < 1000; ++i) {
        emoji += "\xF0\x9F\x98\x80";  // U+1F600, two UTF-16 code units
    }
    CHECK(outcome(Json(emoji)) == kAccepted);
    CHECK(outcome(Json(emoji + "a")) == kTooLarge);
    std::string accents;
    for (int i = 0; i < 2000; ++i) {
        accents += "\xC3\xA9";  // U+00E9, one code unit in two bytes
    }
    CHECK(outcome(Json(accents)) == kAccepted);
    CHECK(outcome(Json(accents + "a")) == kTooLarge);
    // Markup, mentions and trimmed whitespace are not text.
    CHECK(outcome(Json("@alice **" + std::string(1999, 'b') + "**\n\n\n")) == kAccepted);
    CHECK(outcome(Json("@alice **" + std::string(2000, 'b') + "**\n\n\n")) == kTooLarge);
}

TEST_CASE("comment body: 40,000 bytes of JSON") {
    // The language of a code block pads the document to an exact size.
    Json sized = doc(para("x") + R"(,{"type":"codeBlock","attrs":{"language":""}})");
    const size_t base = sized.dump().size();
    sized["content"][1]["attrs"]["language"] = std::string(40000 - base, 'l');
    REQUIRE(sized.dump().size() == 40000);
    CHECK(outcome(sized) == kAccepted);
    sized["content"][1]["attrs"]["language"] = std::string(40001 - base, 'l');
    CHECK(outcome(sized) == kTooLarge);
    // Bytes are counted as UTF-8, after trimming.
    sized["content"][1]["attrs"]["language"] = std::string(40000 - base - 1, 'l') + "\xC3\xA9";
    CHECK(outcome(sized) == kTooLarge);
    sized["content"][1]["attrs"]["language"] = std::string(40000 - base, 'l');
    sized["content"].push_back(
        Json::parse(R"({"type":"paragraph","content":[{"type":"hardBreak"}]})"));
    CHECK(outcome(sized) == kAccepted);
}

TEST_CASE("comment body: 300 nodes") {
    // doc, a paragraph and its text: 3 nodes, then horizontal rules.
    const auto rules = [](int count) {
        std::string blocks = para("x");
        for (int i = 0; i < count; ++i) {
            blocks += R"(,{"type":"horizontalRule"})";
        }
        return doc(blocks);
    };
    CHECK(outcome(rules(297)) == kAccepted);
    CHECK(outcome(rules(298)) == kTooLarge);
    // Mentions are nodes too: doc, paragraph, then 149 texts and 149 mentions make 300.
    std::string mentions = "x";
    for (int i = 0; i < 149; ++i) {
        mentions += " @alice";
    }
    CHECK(outcome(Json(mentions)) == kAccepted);
    CHECK(outcome(Json(mentions + " @alice")) == kTooLarge);
}

TEST_CASE("comment body: depth 12") {
    // doc > 9 quotes > paragraph > text is depth 12.
    CHECK(outcome(Json("> > > > > > > > > x")) == kAccepted);
    CHECK(outcome(Json("> > > > > > > > > > x")) == kTooLarge);
    const auto quoted = [](int quotes) {
        Json root = {{"type", "doc"}, {"content", Json::array()}};
        Json* content = &root["content"];
        for (int i = 0; i < quotes; ++i) {
            content->push_back({{"type", "blockquote"}, {"content", Json::array()}});
            content = &content->back()["content"];
        }
        content->push_back(Json::parse(para("x")));
        return root;
    };
    CHECK(outcome(quoted(9)) == kAccepted);
    CHECK(outcome(quoted(10)) == kTooLarge);
    // Far deeper than any comment: refused without walking it all, no stack overflow.
    CHECK(outcome(quoted(5000)) == kTooLarge);
    CHECK(outcome(Json(std::string(20000, '>') + " x")) == kTooLarge);
    CHECK(outcome(Json(std::string(20000, '*') + "x" + std::string(20000, '*'))) == kTooLarge);
    std::string nested_lists;
    for (int i = 0; i < 300; ++i) {
        nested_lists += std::string(static_cast<size_t>(i) * 2, ' ') + "- x\n";
    }
    CHECK(outcome(Json(nested_lists)) == kTooLarge);
}

TEST_CASE("comment body: hostile Markdown is refused without converting all of it") {
    std::string emphasis;
    for (int i = 0; i < 20000; ++i) {
        emphasis += "*a* ";
    }
    CHECK(outcome(Json(emphasis)) == kTooLarge);
    std::string items;
    for (int i = 0; i < 20000; ++i) {
        items += "-\n";
    }
    CHECK(outcome(Json(items)) == kTooLarge);
    // Thousands of slugs: the lookup is asked about a bounded number of them.
    std::string slugs;
    for (int i = 0; i < 5000; ++i) {
        slugs += "@user" + std::to_string(i) + " @alice ";
    }
    size_t asked = 0;
    const MentionLookup counting = [&](const std::string& slug) {
        ++asked;
        return account_user(slug);
    };
    CHECK_THROWS_WITH_AS(parse_comment_body(Json(slugs), counting), kTooLarge.c_str(),
                         CommentBodyError);
    CHECK(asked <= 1301);
    // Blank paragraphs at the edges are trimmed whatever their size below the bound.
    CHECK(markdown(std::string(3000, '\n') + "&nbsp;\\\n&nbsp;\n\nhi\n\n" +
                   std::string(3000, ' ')) == doc(para("hi")));
}

TEST_CASE("comment body: document_text of stored documents") {
    CHECK(document_text(doc(para("a") + "," + para("b"))) == "ab");
    CHECK(document_text(
              doc(R"({"type":"paragraph","content":[{"type":"text","text":"a"},{"type":"hardBreak"},
                                {"type":"mention","attrs":{"id":"1","label":"x"}},{"type":"text","text":"b"}]})")) ==
          "ab");
    CHECK(document_text(Json("text")).empty());
    CHECK(document_text(Json::parse(para("not a doc"))).empty());
    CHECK(document_text(Json()).empty());
    CHECK(document_text(doc(R"({"type":"unknown"})")).empty());
}

}  // namespace
}  // namespace loupe::reviews
