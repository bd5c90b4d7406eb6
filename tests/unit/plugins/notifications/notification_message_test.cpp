// The notifications plugin's pure rules: the mail of a batch (hostile comment bodies escaped),
// the batching window and the signed unsubscribe token.
#include <doctest/doctest.h>

#include "message/batch_rule.hpp"
#include "message/digest_message.hpp"
#include "message/document_text.hpp"
#include "message/unsubscribe_token.hpp"

using namespace loupe::notifications;

namespace {

NotificationItem mention_item(const std::string& body) {
    NotificationItem item;
    item.kind = "mention";
    item.actor_name = "Ada <admin>";
    item.project = "acme/web";
    item.build_number = 12;
    item.url = "https://loupe.example.com/acme/web/builds/12";
    item.body = body;
    return item;
}

}  // namespace

TEST_CASE("notification digest: one mention, both parts, the body escaped in HTML only") {
    const auto message = build_digest({mention_item("<img src=x onerror=alert(1)>\nsecond line")},
                                      "https://loupe.example.com/u?token=a&b", "https://l/");
    CHECK(message.subject == "[acme/web] Ada <admin> mentioned you on acme/web build #12");
    CHECK(message.text.find("> <img src=x onerror=alert(1)>\n> second line") != std::string::npos);
    CHECK(message.text.find("https://loupe.example.com/acme/web/builds/12") != std::string::npos);
    CHECK(message.html.find("<img src=x") == std::string::npos);
    CHECK(message.html.find("&lt;img src=x onerror=alert(1)&gt;") != std::string::npos);
    CHECK(message.html.find("Ada &lt;admin&gt;") != std::string::npos);
    CHECK(message.html.find("href=\"https://loupe.example.com/u?token=a&amp;b\"") !=
          std::string::npos);
}

TEST_CASE("notification digest: several notifications make one mail") {
    auto reply = mention_item("second");
    reply.kind = "reply";
    const auto message = build_digest({mention_item("first"), reply, reply}, "u", "h");
    CHECK(message.subject == "[Loupe] 3 new notifications");
    CHECK(message.text.find("replied in a thread you follow") != std::string::npos);
    CHECK(message.text.find("mentioned you") != std::string::npos);
}

TEST_CASE("notification digest: review requests and decisions have no quote") {
    auto request = mention_item("");
    request.kind = "review_request";
    auto approved = mention_item("");
    approved.kind = "build_review";
    approved.decision = "approved";
    auto rejected = approved;
    rejected.decision = "rejected";
    CHECK(build_digest({request}, "u", "h").subject ==
          "[acme/web] Ada <admin> asked you to review acme/web build #12");
    const auto message = build_digest({request, approved, rejected}, "u", "h");
    CHECK(message.text.find("Ada <admin> approved acme/web build #12.\n") != std::string::npos);
    CHECK(message.text.find("Ada <admin> requested changes on acme/web build #12.\n") !=
          std::string::npos);
    CHECK(message.text.find("\n> ") == std::string::npos);
    CHECK(message.html.find("<blockquote") == std::string::npos);
    CHECK(message.html.find("Ada &lt;admin&gt; asked you to review") != std::string::npos);
    const auto back = item_of_payload("build_review", to_payload(rejected));
    CHECK(back.decision == "rejected");
}

TEST_CASE("notification digest: a comment on a followed test names the test, not a build") {
    auto item = mention_item("flips on Mondays");
    item.kind = "test_comment";
    item.build_number = 0;
    item.test_name = "checkout.png";
    item.url = "https://loupe.example.com/acme/web/tests/WEB-FW2D";
    const auto message = build_digest({item}, "u", "h");
    CHECK(message.subject == "[acme/web] Ada <admin> commented on acme/web test checkout.png");
    CHECK(message.text.find("> flips on Mondays") != std::string::npos);
    CHECK(message.text.find("build #") == std::string::npos);
    const auto back = item_of_payload("test_comment", to_payload(item));
    CHECK(back.test_name == "checkout.png");
    CHECK(back.url == item.url);
}

TEST_CASE("notification digest: a header never carries a line break") {
    auto item = mention_item("x");
    item.project = "acme/web\r\nBcc: victim@example.com";
    const auto message = build_digest({item}, "u", "h");
    CHECK(message.subject.find('\n') == std::string::npos);
    CHECK(message.subject.find('\r') == std::string::npos);
}

TEST_CASE("notification payload round-trips through its JSON") {
    const auto item = mention_item("hello");
    const auto back = item_of_payload("mention", to_payload(item));
    CHECK(back.actor_name == item.actor_name);
    CHECK(back.project == item.project);
    CHECK(back.build_number == 12);
    CHECK(back.url == item.url);
    CHECK(back.body == "hello");
}

TEST_CASE("notification batching: due once the oldest waited the whole window") {
    const int64_t window = 120'000;
    CHECK_FALSE(batch_due(std::nullopt, 1'000'000, window));
    CHECK_FALSE(batch_due(1'000'000, 1'000'000 + window - 1, window));
    CHECK(batch_due(1'000'000, 1'000'000 + window, window));
    CHECK(delay_until_due(1'000'000, 1'000'500, window) == window - 500);
    CHECK(delay_until_due(1'000'000, 1'000'000 + window + 5, window) == 0);
}

TEST_CASE("unsubscribe token: signed, bound to user and kind, expiring") {
    const std::string secret = "server-secret";
    const int64_t now = 1'700'000'000'000;
    const auto token = sign_unsubscribe_token(secret, {42, "mention", now + 1000});
    const auto claim = verify_unsubscribe_token(secret, token, now);
    REQUIRE(claim.has_value());
    CHECK(claim->user_id == 42);
    CHECK(claim->kind == "mention");
    // Expired, another secret, or tampered with: refused.
    CHECK_FALSE(verify_unsubscribe_token(secret, token, now + 1000).has_value());
    CHECK_FALSE(verify_unsubscribe_token("other", token, now).has_value());
    const auto forged = sign_unsubscribe_token("other", {43, "mention", now + 1000});
    const auto forged_body = forged.substr(0, forged.find('.'));
    CHECK_FALSE(verify_unsubscribe_token(secret, forged_body + token.substr(token.find('.')), now));
    CHECK_FALSE(verify_unsubscribe_token(secret, "garbage", now).has_value());
    CHECK_FALSE(verify_unsubscribe_token(secret, "", now).has_value());
}

TEST_CASE("notification text of a rich-text comment: blocks on lines, mentions by label") {
    const auto doc = loupe::Json::parse(R"({"type":"doc","content":[
        {"type":"paragraph","content":[{"type":"text","text":"Hi "},
            {"type":"mention","attrs":{"id":"7","label":"ada"}},{"type":"text","text":" <b>"}]},
        {"type":"paragraph","content":[{"type":"text","text":"line"},{"type":"hardBreak"},
            {"type":"text","text":"two"}]}]})");
    CHECK(document_plain_text(doc) == "Hi @ada <b>\nline\ntwo");
    CHECK(document_plain_text(loupe::Json()) == "");
    CHECK(document_plain_text(loupe::Json::parse(R"({"type":"doc","content":"x"})")) == "");
}
