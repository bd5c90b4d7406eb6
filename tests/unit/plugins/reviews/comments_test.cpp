// Comments end to end on a real server (SQLite or PostgreSQL): threads, anchors, drafts in a
// review, reactions, resolving, subscriptions, edits and deletions, and every refusal in order.
#include <doctest/doctest.h>
#include <soci/soci.h>

#include "support/admin_cli.hpp"
#include "support/in_process_server.hpp"
#include "unit/plugins/builds/processing_client.hpp"

using namespace loupe::test;
using nlohmann::json;

namespace {

/// A reference build on main and a check build with one changed screenshot.
struct CommentedBuild {
    InProcessServer server{with_reviews()};
    int64_t reference = 0;
    int64_t check = 0;
    std::string changed_diff;    ///< the check's changed diff
    std::string reference_diff;  ///< a diff of the reference build
    std::string bob;             ///< a team member's token

    CommentedBuild() {
        reference = number_of(wait_concluded(
            server, number_of(push_shots(server, {{"x", png_blob("x")}, {"y", png_blob("y")}},
                                         {{"commit", sha('a')}, {"branch", "main"}}))));
        check = number_of(wait_concluded(
            server,
            number_of(push_shots(
                server, {{"x", png_blob("x", block)}, {"y", png_blob("y")}},
                {{"commit", sha('b')}, {"branch", "feature"}, {"referenceCommit", sha('a')}}))));
        changed_diff = list_diffs(server, check, "?needsReview=true")["results"][0]["id"];
        reference_diff = list_diffs(server, reference)["results"][0]["id"];
        bob = member_token(server, "bob", "member");
    }

    std::string url(int64_t number, const std::string& rest = "") const {
        return server.base_url() + "/v2/projects/default/default/builds/" + std::to_string(number) +
               "/comments" + rest;
    }
    HttpResult post(const json& body, const std::string& token, int64_t number = 0) const {
        return http_json("POST", url(number ? number : check), body, token);
    }
    json posted(const json& body, const std::string& token) const {
        auto result = post(body, token);
        REQUIRE_MESSAGE(result.status == 201, result.body);
        return result.json();
    }
    json listed(const std::string& token) const {
        auto result = http_get(url(check), token);
        REQUIRE_MESSAGE(result.status == 200, result.body);
        return result.json();
    }
    HttpResult act(const std::string& method, const std::string& id, const std::string& action,
                   const std::string& token, const json& body = json::object()) const {
        return http_json(method, url(check, "/" + id + (action.empty() ? "" : "/" + action)), body,
                         token);
    }
    const std::string& alice() const { return server.personal_token(); }
};

long long count(const TestServer& server, const std::string& sql) {
    auto db = open_server_database(server);
    return query_number(*db, sql);
}

}  // namespace

TEST_CASE("a thread of three, replied to through a reply's id, listed oldest first") {
    CommentedBuild f;
    auto root = f.posted({{"body", "Is this **intended**?"}}, f.alice());
    CHECK(root["id"].get<std::string>().rfind("comment-", 0) == 0);
    CHECK(root["threadId"].is_null());
    CHECK(root["text"] == "Is this intended?");
    CHECK(root["body"]["type"] == "doc");
    CHECK(root["author"]["slug"] == "admin");
    CHECK(root["pending"] == false);
    CHECK(root["reactions"] == json::array());
    CHECK(root["buildId"] == get_build(f.server, f.check)["id"]);
    auto first = f.posted({{"body", "Yes"}, {"threadId", root["id"]}}, f.bob);
    auto second = f.posted({{"body", "Thanks"}, {"threadId", first["id"]}}, f.alice());
    CHECK(first["threadId"] == root["id"]);
    CHECK(second["threadId"] == root["id"]);  // the reply stores the root

    auto all = f.listed(f.bob);
    REQUIRE(all.size() == 3);
    CHECK(all[0]["id"] == root["id"]);
    CHECK(all[1]["id"] == first["id"]);
    CHECK(all[2]["id"] == second["id"]);
    auto one = http_get(f.url(f.check, "/" + first["id"].get<std::string>()), f.alice());
    CHECK(one.status == 200);
    CHECK(one.json() == all[1]);
}

TEST_CASE("anchors: a point on a diff, a range of lines, and their refusals") {
    CommentedBuild f;
    auto point = f.posted({{"body", "This moved"},
                           {"screenshotDiffId", f.changed_diff},
                           {"anchor", {{"type", "point"}, {"x", 0.25}, {"y", 1}}}},
                          f.alice());
    CHECK(point["screenshotDiffId"] == f.changed_diff);
    CHECK(point["anchor"] == json{{"type", "point"}, {"x", 0.25}, {"y", 1.0}});
    auto lines = f.posted({{"body", "These lines"},
                           {"screenshotDiffId", f.changed_diff},
                           {"anchor", {{"type", "lines"}, {"from", 3}, {"to", 3}}}},
                          f.alice());
    CHECK(lines["anchor"] == json{{"type", "lines"}, {"from", 3}, {"to", 3}});
    auto unanchored =
        f.posted({{"body", "On the diff"}, {"screenshotDiffId", f.changed_diff}}, f.alice());
    CHECK(unanchored["anchor"].is_null());

    auto refused = [&](const json& body) {
        auto result = f.post(body, f.alice());
        return std::pair{result.status, error_of(result)};
    };
    const json point_anchor = {{"type", "point"}, {"x", 0.5}, {"y", 0.5}};
    CHECK(refused({{"body", "r"}, {"threadId", point["id"]}, {"anchor", point_anchor}}) ==
          std::pair{400, std::string("A reply cannot be anchored to a screenshot diff")});
    CHECK(
        refused({{"body", "r"}, {"threadId", point["id"]}, {"screenshotDiffId", f.changed_diff}}) ==
        std::pair{400, std::string("A reply cannot be anchored to a screenshot diff")});
    CHECK(refused({{"body", "a"}, {"anchor", point_anchor}}) ==
          std::pair{400, std::string("A screenshot diff is required to anchor a comment")});
    CHECK(refused(
              {{"body", "a"}, {"screenshotDiffId", f.reference_diff}, {"anchor", point_anchor}}) ==
          std::pair{404, std::string("Screenshot diff not found")});
    CHECK(refused({{"body", "a"}, {"screenshotDiffId", "99999"}}) ==
          std::pair{404, std::string("Screenshot diff not found")});
    CHECK(refused({{"body", "a"},
                   {"screenshotDiffId", f.changed_diff},
                   {"anchor", {{"type", "point"}, {"x", 1.01}, {"y", 0}}}}) ==
          std::pair{400, std::string("Comment anchor coordinates must be between 0 and 1")});
    // A moment is a media's video's: a diff's pin has none, and a negative one is no moment.
    CHECK(refused({{"body", "a"},
                   {"screenshotDiffId", f.changed_diff},
                   {"anchor", {{"type", "point"}, {"x", 0.5}, {"y", 0.5}, {"time", 1.5}}}}) ==
          std::pair{400, std::string("Only a pin on a media (a moment of its video) has a time")});
    CHECK(refused({{"body", "a"},
                   {"screenshotDiffId", f.changed_diff},
                   {"anchor", {{"type", "point"}, {"x", 0.5}, {"y", 0.5}, {"time", -1}}}})
              .first == 400);
    CHECK(refused({{"body", "a"},
                   {"screenshotDiffId", f.changed_diff},
                   {"anchor", {{"type", "lines"}, {"from", 0}, {"to", 2}}}}) ==
          std::pair{400, std::string("Comment anchor lines must be positive integers")});
    CHECK(refused({{"body", "a"},
                   {"screenshotDiffId", f.changed_diff},
                   {"anchor", {{"type", "lines"}, {"from", 5}, {"to", 2}}}}) ==
          std::pair{400, std::string("Comment anchor line range is inverted")});
    auto bad_type = f.post(
        {{"body", "a"}, {"screenshotDiffId", f.changed_diff}, {"anchor", {{"type", "circle"}}}},
        f.alice());
    CHECK(bad_type.status == 400);
    CHECK(first_detail(bad_type) ==
          "anchor.type is Invalid option: expected one of \"point\"|\"lines\"");
    CHECK(count(f.server, "SELECT COUNT(*) FROM comments") == 3);
}

TEST_CASE("a draft comment is visible to its author only until the review is submitted") {
    CommentedBuild f;
    auto draft = f.posted({{"body", "Nit"}, {"addToReview", true}}, f.alice());
    CHECK(draft["pending"] == true);
    auto reply = f.posted({{"body", "Same here"}, {"threadId", draft["id"]}}, f.alice());
    CHECK(reply["pending"] == true);  // a reply to a draft is a draft
    CHECK(f.listed(f.alice()).size() == 2);
    CHECK(f.listed(f.bob).empty());
    CHECK(http_get(f.url(f.check, "/" + draft["id"].get<std::string>()), f.bob).status == 404);
    // Nor through a reaction, whose answer is the comment.
    auto reacted = f.act("POST", draft["id"], "reactions", f.bob, {{"emoji", "👍"}});
    CHECK(reacted.status == 404);
    CHECK(reacted.body.find("Nit") == std::string::npos);
    CHECK(f.act("POST", draft["id"], "reactions", f.alice(), {{"emoji", "👍"}}).status == 200);
    // Alice's draft is a pending review of hers, private to her.
    auto reviews =
        http_get(f.url(f.check).replace(f.url(f.check).rfind("comments"), 8, "reviews"), f.bob);
    CHECK(reviews.json().empty());

    auto submitted =
        http_json("POST", f.url(f.check).replace(f.url(f.check).rfind("comments"), 8, "reviews"),
                  {{"event", "APPROVE"}}, f.alice());
    REQUIRE(submitted.status == 200);
    auto seen = f.listed(f.bob);
    REQUIRE(seen.size() == 2);
    CHECK(seen[0]["pending"] == false);
    CHECK(get_build(f.server, f.check)["status"] == "accepted");

    // On a build that cannot be reviewed yet (no changes), addToReview is ignored.
    auto unchanged = wait_concluded(
        f.server, number_of(push_shots(
                      f.server, {{"x", png_blob("x")}, {"y", png_blob("y")}},
                      {{"commit", sha('c')}, {"branch", "main"}, {"referenceCommit", sha('a')}})));
    REQUIRE(unchanged["status"] == "no-changes");
    auto reference_comment =
        f.post({{"body", "ok"}, {"addToReview", true}}, f.alice(), number_of(unchanged));
    REQUIRE(reference_comment.status == 201);
    CHECK(reference_comment.json()["pending"] == false);
}

TEST_CASE("reactions: two users, counts, no-ops, removal, invalid emoji") {
    CommentedBuild f;
    auto comment = f.posted({{"body", "Ship it"}}, f.alice());
    const std::string id = comment["id"];
    auto thumbs = f.act("POST", id, "reactions", f.alice(), {{"emoji", "👍"}});
    REQUIRE(thumbs.status == 200);
    f.act("POST", id, "reactions", f.bob, {{"emoji", "👍"}});
    f.act("POST", id, "reactions", f.bob, {{"emoji", "👍"}});  // again: nothing changes
    auto both = f.act("POST", id, "reactions", f.bob, {{"emoji", "❤️"}}).json();
    REQUIRE(both["reactions"].size() == 2);
    CHECK(both["reactions"][0]["emoji"] == "👍");
    CHECK(both["reactions"][0]["count"] == 2);
    CHECK(both["reactions"][0]["users"][0]["slug"] == "admin");
    CHECK(both["reactions"][0]["users"][1]["slug"] == "bob");
    CHECK(both["reactions"][1]["emoji"] == "❤️");
    CHECK(both["reactions"][1]["count"] == 1);

    auto removed = http_json("DELETE", f.url(f.check, "/" + id + "/reactions?emoji=%F0%9F%91%8D"),
                             json(nullptr), f.bob);
    REQUIRE(removed.status == 200);
    CHECK(removed.json()["reactions"][0]["count"] == 1);
    auto missing = http_json("DELETE", f.url(f.check, "/" + id + "/reactions?emoji=%F0%9F%8E%89"),
                             json(nullptr), f.bob);
    CHECK(missing.status == 200);
    CHECK(count(f.server, "SELECT COUNT(*) FROM comment_reactions") == 2);

    for (const char* bad : {"", "ok", "👍👍", ":+1:"}) {
        auto refused = f.act("POST", id, "reactions", f.alice(), {{"emoji", bad}});
        CHECK(refused.status == 400);
        CHECK(error_of(refused) == "Invalid emoji");
    }
    CHECK(f.act("POST", "comment-nope", "reactions", f.alice(), {{"emoji", "👍"}}).status == 404);
    auto no_emoji =
        http_json("DELETE", f.url(f.check, "/" + id + "/reactions"), json(nullptr), f.bob);
    CHECK(no_emoji.status == 400);
    CHECK(count(f.server, "SELECT COUNT(*) FROM comment_reactions") == 2);
}

TEST_CASE("resolve and unresolve through a reply's id answer the root; idempotent") {
    CommentedBuild f;
    auto root = f.posted({{"body", "Question"}}, f.alice());
    auto reply = f.posted({{"body", "Answer"}, {"threadId", root["id"]}}, f.bob);
    auto resolved = f.act("POST", reply["id"], "resolve", f.bob);
    REQUIRE(resolved.status == 200);
    CHECK(resolved.json()["id"] == root["id"]);
    const auto at = resolved.json()["resolvedAt"];
    CHECK(at.is_string());
    CHECK(f.act("POST", root["id"], "resolve", f.bob).json()["resolvedAt"] == at);
    auto reopened = f.act("POST", reply["id"], "unresolve", f.alice());
    CHECK(reopened.json()["id"] == root["id"]);
    CHECK(reopened.json()["resolvedAt"].is_null());
    CHECK(f.listed(f.alice())[1]["resolvedAt"].is_null());  // only the root carries it
    auto unknown = f.act("POST", "comment-doesnotexist", "resolve", f.bob);
    CHECK(unknown.status == 404);
    CHECK(error_of(unknown) == "Thread not found");
}

TEST_CASE("subscriptions: posting subscribes, explicit choices are kept") {
    CommentedBuild f;
    auto& server = f.server;
    // Bob unsubscribes from the build first: his root comment does not subscribe him again.
    const auto build_subscription =
        f.url(f.check).replace(f.url(f.check).rfind("comments"), 8, "subscription");
    auto off = http_json("DELETE", build_subscription, json(nullptr), f.bob);
    REQUIRE(off.status == 200);
    CHECK(off.json()["subscribed"] == false);
    auto root = f.posted({{"body", "Root"}}, f.bob);
    auto reply = f.posted({{"body", "Reply"}, {"threadId", root["id"]}}, f.alice());
    CHECK(count(server, "SELECT COUNT(*) FROM build_subscriptions WHERE subscribed = 1") == 0);
    CHECK(count(server, "SELECT COUNT(*) FROM thread_subscriptions WHERE subscribed = 1") == 2);
    auto alice_root = f.posted({{"body", "Another"}}, f.alice());
    CHECK(count(server, "SELECT COUNT(*) FROM build_subscriptions WHERE subscribed = 1") == 1);

    auto unsubscribed = f.act("DELETE", reply["id"], "subscription", f.alice(), json(nullptr));
    REQUIRE(unsubscribed.status == 200);
    CHECK(unsubscribed.json()["id"] == root["id"]);
    CHECK(count(server, "SELECT COUNT(*) FROM thread_subscriptions WHERE subscribed = 1") == 2);
    f.posted({{"body", "More"}, {"threadId", root["id"]}}, f.alice());  // keeps her choice
    CHECK(count(server, "SELECT COUNT(*) FROM thread_subscriptions WHERE subscribed = 1") == 2);
    CHECK(f.act("POST", root["id"], "subscription", f.alice()).status == 200);
    CHECK(count(server, "SELECT COUNT(*) FROM thread_subscriptions WHERE subscribed = 1") == 3);
    CHECK(http_json("POST", build_subscription, json(nullptr), f.bob).json()["subscribed"] == true);
    (void)alice_root;
}

TEST_CASE("edits by the author only; deletion hides the comment and closes its thread") {
    CommentedBuild f;
    auto root = f.posted({{"body", "Frist"}}, f.alice());
    const std::string id = root["id"];
    auto edited = f.act("PATCH", id, "", f.alice(), {{"body", "First"}});
    REQUIRE(edited.status == 200);
    CHECK(edited.json()["text"] == "First");
    CHECK(edited.json()["editedAt"].is_string());
    auto by_bob = f.act("PATCH", id, "", f.bob, {{"body", "Hacked"}});
    CHECK(by_bob.status == 403);
    CHECK(error_of(by_bob) == "You do not have permission to edit this comment");
    auto empty = f.act("PATCH", id, "", f.alice(), {{"body", "   "}});
    CHECK(empty.status == 400);
    CHECK(error_of(empty) == "Comment cannot be empty");
    CHECK(f.listed(f.alice())[0]["text"] == "First");

    auto reply = f.posted({{"body", "Reply"}, {"threadId", id}}, f.bob);
    CHECK(f.act("DELETE", id, "", f.bob, json(nullptr)).status == 403);
    auto deleted = f.act("DELETE", id, "", f.alice(), json(nullptr));
    REQUIRE(deleted.status == 200);
    auto remaining = f.listed(f.alice());
    REQUIRE(remaining.size() == 1);
    CHECK(remaining[0]["id"] == reply["id"]);
    CHECK(http_get(f.url(f.check, "/" + id), f.alice()).status == 404);
    auto closed = f.post({{"body", "Late"}, {"threadId", reply["id"]}}, f.bob);
    CHECK(closed.status == 404);
    CHECK(error_of(closed) == "Thread not found");
    // A deleted comment takes no reactions (the answer would show its body), still edits by
    // its author.
    auto reacted = f.act("POST", id, "reactions", f.bob, {{"emoji", "🎉"}});
    CHECK(reacted.status == 404);
    CHECK(error_of(reacted) == "Comment not found");
    CHECK(reacted.body.find("First") == std::string::npos);
    CHECK(http_json("DELETE", f.url(f.check, "/" + id + "/reactions?emoji=%F0%9F%8E%89"),
                    json(nullptr), f.bob)
              .status == 404);
    CHECK(f.act("PATCH", id, "", f.alice(), {{"body", "Gone"}}).status == 200);
}

TEST_CASE("bodies: Markdown becomes the document, a document is kept, limits are enforced") {
    CommentedBuild f;
    auto markdown =
        f.posted({{"body", "# Title\n\n- one\n- [link](https://example.com)\n\n`code` and @bob"}},
                 f.alice());
    const auto doc = markdown["body"];
    REQUIRE(doc["content"].size() == 3);
    CHECK(doc["content"][0]["type"] == "heading");
    CHECK(doc["content"][0]["attrs"]["level"] == 1);
    CHECK(doc["content"][1]["type"] == "bulletList");
    const auto text = doc.dump();
    CHECK(text.find("\"type\":\"link\"") != std::string::npos);
    CHECK(text.find("https://example.com") != std::string::npos);
    CHECK(text.find("\"type\":\"code\"") != std::string::npos);
    CHECK(text.find("\"type\":\"mention\"") != std::string::npos);
    CHECK(markdown["text"].get<std::string>().find("Title") == 0);

    const json rich = {
        {"type", "doc"},
        {"content",
         {{{"type", "paragraph"},
           {"content", {{{"type", "text"}, {"text", "Rich"}, {"marks", {{{"type", "bold"}}}}}}}}}}};
    auto kept = f.posted({{"body", rich}}, f.alice());
    CHECK(kept["body"] == rich);
    CHECK(kept["text"] == "Rich");

    CHECK(f.post({{"body", std::string(2000, 'a')}}, f.alice()).status == 201);
    auto too_large = f.post({{"body", std::string(2001, 'a')}}, f.alice());
    CHECK(too_large.status == 400);
    CHECK(error_of(too_large) == "Comment is too large");
    auto blank = f.post({{"body", "\n\n  \n"}}, f.alice());
    CHECK(error_of(blank) == "Comment cannot be empty");
    auto invalid =
        f.post({{"body", {{"type", "doc"}, {"content", {{{"type", "iframe"}}}}}}}, f.alice());
    CHECK(invalid.status == 400);
    CHECK(error_of(invalid) ==
          "Invalid comment body. Expected Markdown text or a valid rich-text JSON document.");
    auto number = f.post({{"body", 42}}, f.alice());
    CHECK(number.status == 400);
    auto missing = f.post({{"threadId", "x"}}, f.alice());
    CHECK(missing.status == 400);
    CHECK(first_detail(missing) == "body is Invalid input: expected string, received undefined");
    // Unknown fields are ignored; malformed JSON and invalid UTF-8 are refused, never a crash.
    CHECK(f.post({{"body", "ok"}, {"extra", {1, 2}}}, f.alice()).status == 201);
    HttpCall broken{
        "POST", f.url(f.check), "{\"body\": \"\xff\xfe\"}", "application/json", f.alice(), {}};
    CHECK(http(broken).status == 400);
    HttpCall truncated{"POST", f.url(f.check), "{\"body\": ", "application/json", f.alice(), {}};
    CHECK(http(truncated).status == 400);
}

TEST_CASE("refusals common to the comment endpoints, in order") {
    CommentedBuild f;
    auto& server = f.server;
    auto comment = f.posted({{"body", "Hi"}}, f.alice());
    const std::string id = comment["id"];
    CHECK(f.post({{"body", "x"}}, server.project_token()).status == 401);
    CHECK(http_json("POST", f.url(f.check), {{"body", "x"}}).status == 401);
    admin(server, {"user", "create", "--slug", "olga", "--name", "Olga"});
    admin(server, {"account", "create", "--slug", "other", "--name", "Other", "--owner", "olga"});
    const auto olga = find_token(
        admin(server, {"token", "create", "--user", "olga", "--account", "other"}), "arp_");
    CHECK(f.post({{"body", "x"}}, olga).status == 401);
    auto unknown = f.post({{"body", "x"}}, f.alice(), 999);
    CHECK(unknown.status == 404);
    CHECK(error_of(unknown) == "Not found");

    const auto viewer = member_token(server, "vera", "contributor");
    admin(server, {"project", "grant", "--project", "default/default", "--user", "vera", "--level",
                   "viewer"});
    auto not_allowed = f.post({{"body", "x"}}, viewer);
    CHECK(not_allowed.status == 403);
    CHECK(error_of(not_allowed) == "You do not have permission to comment on this build");
    CHECK(error_of(f.act("POST", id, "reactions", viewer, {{"emoji", "👍"}})) ==
          "You do not have permission to react to this comment");
    CHECK(error_of(f.act("POST", id, "resolve", viewer)) ==
          "You do not have permission to resolve this thread");
    CHECK(error_of(f.act("POST", id, "unresolve", viewer)) ==
          "You do not have permission to reopen this thread");
    CHECK(f.listed(viewer).size() == 1);  // viewing is allowed
    CHECK(f.act("POST", id, "subscription", viewer).status == 200);
    const auto stranger = member_token(server, "sam", "contributor");
    auto hidden = http_get(f.url(f.check), stranger);
    CHECK(hidden.status == 403);
    CHECK(error_of(hidden) == "You do not have permission to view this build");
    CHECK(error_of(f.act("POST", id, "subscription", stranger)) ==
          "You do not have permission to access this thread");

    // Comments of another build are not found from this one.
    auto elsewhere = f.post({{"body", "On the reference"}}, f.alice(), f.reference);
    const std::string other = elsewhere.json()["id"];
    auto thread = f.post({{"body", "x"}, {"threadId", other}}, f.alice());
    CHECK(thread.status == 404);
    CHECK(error_of(thread) == "Thread not found");
    auto single = f.act("PATCH", other, "", f.alice(), {{"body", "x"}});
    CHECK(single.status == 404);
    CHECK(error_of(single) == "Comment not found");
    CHECK(count(server, "SELECT COUNT(*) FROM comments") == 2);
}

TEST_CASE("a review's body becomes a comment of that review") {
    CommentedBuild f;
    auto review =
        http_json("POST", f.url(f.check).replace(f.url(f.check).rfind("comments"), 8, "reviews"),
                  {{"event", "REJECT"}, {"body", "Please fix the **header**"}}, f.alice());
    REQUIRE_MESSAGE(review.status == 200, review.body);
    auto comments = f.listed(f.bob);
    REQUIRE(comments.size() == 1);
    CHECK(comments[0]["text"] == "Please fix the header");
    CHECK(comments[0]["pending"] == false);
    const auto reviews_url = f.url(f.check).replace(f.url(f.check).rfind("comments"), 8, "reviews");
    // A body that is not a valid document is a validation error, checked before permissions.
    auto invalid = http_json("POST", reviews_url,
                             {{"event", "APPROVE"}, {"body", {{"type", "paragraph"}}}}, f.alice());
    CHECK(invalid.status == 400);
    CHECK(first_detail(invalid) ==
          "body is Invalid comment body. Expected Markdown text or a valid rich-text JSON "
          "document.");
    auto too_large = http_json("POST", reviews_url,
                               {{"event", "APPROVE"}, {"body", std::string(2001, 'x')}}, f.alice());
    CHECK(first_detail(too_large) == "body is Comment is too large");
    // A blank body is no comment at all.
    CHECK(
        http_json("POST", reviews_url, {{"event", "APPROVE"}, {"body", "  "}}, f.alice()).status ==
        200);
    CHECK(count(f.server, "SELECT COUNT(*) FROM reviews") == 2);
    CHECK(count(f.server, "SELECT COUNT(*) FROM comments") == 1);
}
