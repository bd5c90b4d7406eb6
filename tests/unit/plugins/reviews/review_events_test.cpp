// The reviews plugin's events as a subscriber receives them (fixture plugin "builds_probe"):
// a build's review state changing, reviews submitted (by people, or carried forward), comments
// becoming visible with their thread, diff, test and mentions.
#include <doctest/doctest.h>
#include <soci/soci.h>

#include "support/admin_cli.hpp"
#include "support/build_paths.hpp"
#include "support/in_process_server.hpp"
#include "unit/plugins/builds/processing_client.hpp"

using namespace loupe::test;
using nlohmann::json;

namespace {

ServerOptions with_reviews_and_probe() {
    ServerOptions options;
    options.plugins = {"auth", "builds", "reviews", "builds_probe"};
    options.settings["plugins.path"] =
        std::string(LOUPE_TEST_PLUGIN_DIR) + ":" + LOUPE_TEST_FIXTURE_PLUGIN_DIR;
    return options;
}

std::string build_url(const TestServer& server, int64_t number, const std::string& rest) {
    return server.base_url() + "/v2/projects/default/default/builds/" + std::to_string(number) +
           rest;
}

json post(const TestServer& /*server*/, const std::string& url, const json& body,
          const std::string& token) {
    auto result = http_json("POST", url, body, token);
    REQUIRE_MESSAGE(result.status / 100 == 2, result.body);
    return result.json();
}

/// The events of `type` the probe received about build `build_id`, oldest first, once every
/// delivery settled.
std::vector<json> received(const TestServer& server, int64_t build_id, const std::string& type) {
    wait_jobs_settled(server, "reviews.carry_approvals");
    wait_jobs_settled(server, "builds_probe.events");
    auto result = http_get(server.base_url() + "/v2/probe/events");
    REQUIRE(result.status == 200);
    std::vector<json> events;
    for (const auto& event : result.json()) {
        if (event["build"] == build_id && event["type"] == type) {
            CHECK(event["publisher"] ==
                  (type.starts_with("build.") && type != "build.review_state_changed" ? "builds"
                                                                                      : "reviews"));
            events.push_back(event["data"]);
        }
    }
    return events;
}

}  // namespace

TEST_CASE(
    "reviews events: review state changes, submitted reviews, visible comments, approvals "
    "carried forward") {
    InProcessServer server(with_reviews_and_probe());
    const auto& alice = server.personal_token();
    const auto bob = member_token(server, "bob", "member");
    int64_t alice_id = 0;
    int64_t bob_id = 0;
    {
        auto db = open_server_database(server);
        bob_id = query_number(*db, "SELECT id FROM users WHERE slug = 'bob'");
        alice_id = query_number(*db, "SELECT MIN(id) FROM users");
    }
    wait_concluded(server, number_of(push_shots(server, {{"x", png_blob("x")}},
                                                {{"commit", sha('a')}, {"branch", "main"}})));
    const json check_body = {
        {"commit", sha('b')}, {"branch", "feature"}, {"referenceCommit", sha('a')}};
    const auto check = wait_concluded(
        server, number_of(push_shots(server, {{"x", png_blob("x", block)}}, check_body)));
    const int64_t number = number_of(check);
    const int64_t id = std::stoll(check["id"].get<std::string>());
    const std::string diff = list_diffs(server, number, "?needsReview=true")["results"][0]["id"];

    // A comment pinned to the diff, mentioning Bob; Bob's reply in its thread.
    const auto comment = post(server, build_url(server, number, "/comments"),
                              {{"body", "look @bob"}, {"screenshotDiffId", diff}}, alice);
    post(server, build_url(server, number, "/comments"),
         {{"body", "seen"}, {"threadId", comment["id"]}}, bob);
    auto comments = received(server, id, "comment.created");
    REQUIRE(comments.size() == 2);
    CHECK(comments[0]["publicId"] == comment["id"]);
    CHECK(comments[0]["authorId"] == alice_id);
    CHECK(comments[0]["buildNumber"] == number);
    CHECK(comments[0]["mentionedUserIds"] == json::array({bob_id}));
    CHECK(comments[0]["diffId"] == std::stoll(diff));
    CHECK(comments[0]["testId"].is_number());
    CHECK(comments[0]["threadId"].is_null());
    CHECK(comments[1]["authorId"] == bob_id);
    CHECK(comments[1]["threadId"] == comments[0]["commentId"]);
    CHECK(comments[1]["mentionedUserIds"].empty());
    // The body as stored (a rich-text document), and who follows the thread a reply is in: both
    // commenters (the notifications plugin mails them but the author).
    CHECK(comments[0]["body"]["type"] == "doc");
    CHECK(comments[0]["threadFollowerIds"].empty());
    CHECK(comments[1]["threadFollowerIds"] == json::array({alice_id, bob_id}));

    // Bob drafts a comment in a review: nobody hears of it until he submits the review.
    post(server, build_url(server, number, "/comments"), {{"body", "draft"}, {"addToReview", true}},
         bob);
    CHECK(received(server, id, "comment.created").size() == 2);
    post(server, build_url(server, number, "/reviews"), {{"event", "COMMENT"}}, bob);
    comments = received(server, id, "comment.created");
    REQUIRE(comments.size() == 3);
    CHECK(comments[2]["authorId"] == bob_id);
    CHECK(comments[2]["reviewId"].is_number());

    // Alice approves: the build's state changes once, her review is announced.
    const auto review =
        post(server, build_url(server, number, "/reviews"), {{"event", "APPROVE"}}, alice);
    auto submitted = received(server, id, "review.submitted");
    REQUIRE(submitted.size() == 2);
    CHECK(submitted[0]["decision"] == "commented");
    CHECK(submitted[1]["decision"] == "approved");
    CHECK(submitted[1]["reviewId"] == std::stoll(review["id"].get<std::string>()));
    CHECK(submitted[1]["userId"] == alice_id);
    CHECK(submitted[1]["automatic"] == false);
    CHECK(submitted[1]["build"]["status"] == "accepted");
    auto changes = received(server, id, "build.review_state_changed");
    // The draft cancelled nothing (no verdict yet), the COMMENT review neither: one change.
    REQUIRE(changes.size() == 1);
    CHECK(changes[0]["state"] == "accepted");
    CHECK(changes[0]["previousState"].is_null());
    CHECK(changes[0]["build"]["status"] == "accepted");
    CHECK(changes[0]["build"]["number"] == number);

    // The same change on the next commit of the branch: Alice's approval is carried forward.
    const json next_body = {
        {"commit", sha('c')}, {"branch", "feature"}, {"referenceCommit", sha('a')}};
    const auto next = wait_concluded(
        server, number_of(push_shots(server, {{"x", png_blob("x", block)}}, next_body)));
    const int64_t next_id = std::stoll(next["id"].get<std::string>());
    auto carried = received(server, next_id, "review.submitted");
    REQUIRE(carried.size() == 1);
    CHECK(carried[0]["automatic"] == true);
    CHECK(carried[0]["userId"] == alice_id);
    CHECK(carried[0]["inheritedFromReviewId"] == submitted[1]["reviewId"]);
    changes = received(server, next_id, "build.review_state_changed");
    REQUIRE(changes.size() == 1);
    CHECK(changes[0]["state"] == "accepted");
    CHECK(changes[0]["previousState"].is_null());
    CHECK(get_build(server, number_of(next))["status"] == "accepted");
    // Its conclusion was announced as changes-detected, before the approval came.
    auto concluded = received(server, next_id, "build.concluded");
    REQUIRE(concluded.size() == 1);
    CHECK(concluded[0]["build"]["status"] == "changes-detected");
}
