// Reviews end to end on a real server (SQLite or PostgreSQL): submitting, listing and
// dismissing reviews, the review state they give a build, permissions, refusals, approvals as
// baselines and approvals carried forward.
#include <doctest/doctest.h>
#include <soci/soci.h>

#include <thread>

#include "support/admin_cli.hpp"
#include "support/in_process_server.hpp"
#include "unit/plugins/builds/processing_client.hpp"

using namespace loupe::test;
using nlohmann::json;

namespace {

const Paint other_block{30, 20, 12, 12};

std::string reviews_url(const TestServer& server, int64_t number) {
    return server.base_url() + "/v2/projects/default/default/builds/" + std::to_string(number) +
           "/reviews";
}

HttpResult submit(const TestServer& server, const std::string& token, int64_t number,
                  const json& review) {
    return http_json("POST", reviews_url(server, number), review, token);
}

json approve(const TestServer& server, const std::string& token, int64_t number) {
    auto result = submit(server, token, number, {{"event", "APPROVE"}});
    REQUIRE_MESSAGE(result.status == 200, result.body);
    return result.json();
}

HttpResult dismiss(const TestServer& server, const std::string& token, int64_t number,
                   const std::string& review_id) {
    return http_json("POST", reviews_url(server, number) + "/" + review_id + "/dismiss",
                     json::object(), token);
}

json list_reviews(const TestServer& server, const std::string& token, int64_t number) {
    auto result = http_get(reviews_url(server, number), token);
    REQUIRE_MESSAGE(result.status == 200, result.body);
    return result.json();
}

long long review_count(const TestServer& server) {
    auto db = open_server_database(server);
    return query_number(*db, "SELECT COUNT(*) FROM reviews");
}

/// A reference build on main (commit a) and a check build X on `feature` (commit b) with one
/// changed screenshot: X concludes changes-detected.
struct ReviewedBranch {
    InProcessServer server{with_reviews()};
    int64_t reference = 0;
    int64_t x = 0;

    ReviewedBranch() {
        reference = number_of(wait_concluded(
            server, number_of(push_shots(server, {{"x", png_blob("x")}, {"y", png_blob("y")}},
                                         body(sha('a'), "main")))));
        x = number_of(push_check(sha('b'), block, {{"referenceCommit", sha('a')}}));
        REQUIRE(get_build(server, x)["status"] == "changes-detected");
    }

    json push_check(const std::string& commit, const Paint& paint, json git,
                    const std::string& branch = "feature") {
        return wait_concluded(
            server,
            number_of(push_shots(server, {{"x", png_blob("x", paint)}, {"y", png_blob("y")}},
                                 body(commit, branch, std::move(git)))));
    }
};

}  // namespace

TEST_CASE("review state: approval, rejection wins, dismissal, a later comment cancels") {
    ReviewedBranch f;
    auto& server = f.server;
    const auto bob = member_token(server, "bob", "member");
    const auto& alice = server.personal_token();

    auto approved = approve(server, alice, f.x);
    CHECK(approved["state"] == "approved");
    CHECK(approved["buildId"] == get_build(server, f.x)["id"]);
    CHECK(approved["user"]["slug"] == "admin");
    CHECK(approved["dismissedAt"].is_null());
    CHECK(approved["dismissedBy"].is_null());
    CHECK(approved["automatic"] == false);
    auto build = get_build(server, f.x);
    CHECK(build["status"] == "accepted");
    CHECK(build["conclusion"] == "changes-detected");
    CHECK(build["notification"]["description"] == "1 changed \u2014 approved");
    CHECK(build["notification"]["github"]["state"] == "success");

    // The deprecated `conclusion` the 4.x CLI sends: REQUEST_CHANGES is a rejection.
    auto rejected = submit(server, bob, f.x, {{"conclusion", "REQUEST_CHANGES"}});
    REQUIRE(rejected.status == 200);
    CHECK(rejected.json()["state"] == "rejected");
    build = get_build(server, f.x);
    CHECK(build["status"] == "rejected");
    CHECK(build["notification"]["description"] == "1 changed \u2014 rejected");
    CHECK(build["notification"]["gitlab"]["state"] == "failed");
    // The list of builds reads the same state as the build itself.
    auto listed = http_get(server.base_url() + "/v2/projects/default/default/builds?head=feature",
                           server.project_token());
    CHECK(listed.json()["results"][0]["status"] == "rejected");

    auto dismissed = dismiss(server, alice, f.x, rejected.json()["id"]);
    REQUIRE_MESSAGE(dismissed.status == 200, dismissed.body);
    CHECK(dismissed.json()["state"] == "rejected");
    CHECK(dismissed.json()["dismissedBy"]["slug"] == "admin");
    CHECK_FALSE(dismissed.json()["dismissedAt"].is_null());
    CHECK(get_build(server, f.x)["status"] == "accepted");

    // An approved check is an approved baseline at its commit.
    auto y = f.push_check(sha('c'), block, {{"referenceCommit", sha('b')}}, "feature-2");
    CHECK(y["baselineBuild"]["number"] == f.x);
    CHECK(y["baselineBuild"]["reason"] == "merge-base");
    CHECK(y["conclusion"] == "no-changes");

    // Alice's later COMMENT review cancels her approval: X reads changes-detected again and is
    // no longer an approved baseline.
    auto comment = submit(server, alice, f.x, {{"event", "COMMENT"}});
    REQUIRE(comment.status == 200);
    CHECK(comment.json()["state"] == "commented");
    CHECK(get_build(server, f.x)["status"] == "changes-detected");
    auto z = f.push_check(sha('d'), block, {{"referenceCommit", sha('b')}}, "feature-3");
    CHECK(z["baselineBuild"]["reason"] == "no-eligible-build");

    // Every review stays listed, oldest first, the dismissed one included.
    auto reviews = list_reviews(server, alice, f.x);
    REQUIRE(reviews.size() == 3);
    CHECK(reviews[0]["state"] == "approved");
    CHECK(reviews[1]["state"] == "rejected");
    CHECK_FALSE(reviews[1]["dismissedAt"].is_null());
    CHECK(reviews[2]["state"] == "commented");
}

TEST_CASE("a rejected build is never a baseline, not even as an ancestor") {
    ReviewedBranch f;
    auto& server = f.server;
    auto rejected = submit(server, server.personal_token(), f.x, {{"event", "REJECT"}});
    REQUIRE(rejected.status == 200);
    const json ancestors = {{"parentCommits", {sha('e'), sha('b'), sha('a')}}};
    auto next = f.push_check(sha('e'), block, ancestors, "feature");
    CHECK(next["baselineBuild"]["number"] == f.reference);
    CHECK(next["baselineBuild"]["reason"] == "ancestor");

    auto find = http_json("POST", server.base_url() + "/v2/baseline",
                          {{"commits", {sha('b'), sha('a')}}}, server.project_token());
    REQUIRE(find.status == 200);
    CHECK(find.json()["baseline"]["number"] == f.reference);

    // Once approved, the same check is the closest ancestor.
    approve(server, server.personal_token(), f.x);
    auto after = f.push_check(sha('f'), block, ancestors, "feature");
    CHECK(after["baselineBuild"]["number"] == f.x);
    find = http_json("POST", server.base_url() + "/v2/baseline",
                     {{"commits", {sha('b'), sha('a')}}}, server.project_token());
    CHECK(find.json()["baseline"]["number"] == f.x);
}

TEST_CASE("a monitoring build is a baseline only once approved") {
    InProcessServer server(with_reviews());
    auto monitor = [&](const std::string& seed) {
        return wait_concluded(
            server, number_of(push_shots(server, {{"page", png_blob(seed)}},
                                         body(sha('a'), "main", {{"mode", "monitoring"}}))));
    };
    auto first = monitor("page-1");
    CHECK(first["baselineBuild"]["reason"] == "no-eligible-build");
    auto second = monitor("page-2");
    CHECK(second["baselineBuild"]["reason"] == "no-eligible-build");
    approve(server, server.personal_token(), number_of(first));
    auto third = monitor("page-3");
    CHECK(third["baselineBuild"]["number"] == number_of(first));
    CHECK(third["baselineBuild"]["reason"] == "monitoring");
    auto find =
        http_json("POST", server.base_url() + "/v2/baseline",
                  {{"commits", {sha('a')}}, {"mode", "monitoring"}}, server.project_token());
    CHECK(find.json()["baseline"]["number"] == number_of(first));
}

TEST_CASE("permissions: review, view and dismiss follow the account role and project level") {
    ReviewedBranch f;
    auto& server = f.server;
    const auto carol = member_token(server, "carol", "contributor");
    const auto dave = member_token(server, "dave", "contributor");
    const auto erin = member_token(server, "erin", "contributor");
    admin(server, {"project", "grant", "--project", "default/default", "--user", "carol", "--level",
                   "reviewer"});
    auto granted = admin(server, {"project", "grant", "--project", "default/default", "--user",
                                  "dave", "--level", "viewer"});
    CHECK(granted["grant"]["level"] == "viewer");

    auto by_carol = submit(server, carol, f.x, {{"event", "APPROVE"}});
    CHECK(by_carol.status == 200);
    auto by_dave = submit(server, dave, f.x, {{"event", "APPROVE"}});
    CHECK(by_dave.status == 403);
    CHECK(error_of(by_dave) == "You do not have permission to review this build");
    CHECK(list_reviews(server, dave, f.x).size() == 1);  // a viewer still sees the reviews
    auto by_erin = http_get(reviews_url(server, f.x), erin);
    CHECK(by_erin.status == 403);
    CHECK(error_of(by_erin) == "You do not have permission to view this build");
    // A reviewer may review but not dismiss.
    auto carol_dismiss = dismiss(server, carol, f.x, by_carol.json()["id"]);
    CHECK(carol_dismiss.status == 403);
    CHECK(error_of(carol_dismiss) == "You do not have permission to dismiss this review");
    // Removing the level takes the permission back.
    admin(server, {"project", "grant", "--project", "default/default", "--user", "carol", "--level",
                   "none"});
    CHECK(submit(server, carol, f.x, {{"event", "APPROVE"}}).status == 403);
    CHECK(review_count(server) == 1);
}

TEST_CASE("refusals of POST reviews, in order, and nothing stored") {
    ReviewedBranch f;
    auto& server = f.server;
    const auto& alice = server.personal_token();
    // A body without a token is never read; with one, validation comes before permissions.
    auto no_token = http_json("POST", reviews_url(server, f.x), json::object());
    CHECK(no_token.status == 401);
    auto no_event = http_json("POST", reviews_url(server, f.x), json::object(), alice);
    CHECK(no_event.status == 400);
    CHECK(error_of(no_event) == "Either `event` or `conclusion` is required");
    auto bad_event = http_json("POST", reviews_url(server, f.x), {{"event", "LGTM"}}, alice);
    CHECK(bad_event.status == 400);
    CHECK(first_detail(bad_event) ==
          "event is Invalid option: expected one of \"APPROVE\"|\"REJECT\"|\"COMMENT\"");
    auto bad_number = http_json("POST", reviews_url(server, 0), {{"event", "APPROVE"}}, alice);
    CHECK(bad_number.status == 400);
    auto bad_snapshots =
        submit(server, alice, f.x, {{"event", "APPROVE"}, {"snapshots", {{{"id", "1"}}}}});
    CHECK(bad_snapshots.status == 400);
    CHECK(first_detail(bad_snapshots).rfind("snapshots.0.conclusion is ", 0) == 0);

    auto project_token = submit(server, server.project_token(), f.x, {{"event", "APPROVE"}});
    CHECK(project_token.status == 401);

    admin(server, {"user", "create", "--slug", "olga", "--name", "Olga"});
    admin(server, {"account", "create", "--slug", "other", "--name", "Other", "--owner", "olga"});
    const auto olga = find_token(
        admin(server, {"token", "create", "--user", "olga", "--account", "other"}), "arp_");
    auto out_of_scope = submit(server, olga, f.x, {{"event", "APPROVE"}});
    CHECK(out_of_scope.status == 401);

    auto unknown = submit(server, alice, 999, {{"event", "APPROVE"}});
    CHECK(unknown.status == 404);
    CHECK(error_of(unknown) == "Not found");

    // Diffs of another build, listed once each, the first ten then a count.
    const auto reference_diffs = list_diffs(server, f.reference);
    json snapshots = json::array();
    for (const auto& diff : reference_diffs["results"]) {
        snapshots.push_back({{"id", diff["id"]}, {"conclusion", "APPROVE"}});
    }
    for (int i = 0; i < 11; ++i) {
        snapshots.push_back({{"id", "x" + std::to_string(i)}, {"conclusion", "REQUEST_CHANGES"}});
    }
    auto foreign = submit(server, alice, f.x, {{"event", "APPROVE"}, {"snapshots", snapshots}});
    CHECK(foreign.status == 400);
    const std::string first_id = reference_diffs["results"][0]["id"];
    const std::string second_id = reference_diffs["results"][1]["id"];
    CHECK(error_of(foreign) == "Some reviewed screenshot diffs do not belong to build " +
                                   std::to_string(f.x) + ": " + first_id + ", " + second_id +
                                   ", x0, x1, x2, x3, x4, x5, x6, x7 and 3 more");
    CHECK(review_count(server) == 0);
    CHECK(get_build(server, f.x)["status"] == "changes-detected");
}

TEST_CASE("per-snapshot decisions are stored with the review and listed") {
    ReviewedBranch f;
    auto& server = f.server;
    const auto diffs = list_diffs(server, f.x)["results"];
    const std::string changed = diffs[0]["id"];
    auto review = submit(server, server.personal_token(), f.x,
                         {{"event", "REJECT"},
                          {"snapshots", {{{"id", changed}, {"conclusion", "REQUEST_CHANGES"}}}}});
    REQUIRE(review.status == 200);
    CHECK(review.json()["snapshots"] ==
          json::array({{{"id", changed}, {"conclusion", "REQUEST_CHANGES"}}}));
    CHECK(list_reviews(server, server.personal_token(), f.x)[0]["snapshots"][0]["id"] == changed);
}

TEST_CASE("dismissal refusals: unknown, another build's, a draft, twice") {
    ReviewedBranch f;
    auto& server = f.server;
    const auto& alice = server.personal_token();
    const auto bob = member_token(server, "bob", "member");
    auto on_reference = approve(server, alice, f.reference);
    auto on_x = approve(server, alice, f.x);

    auto unknown = dismiss(server, alice, f.x, "987654");
    CHECK(unknown.status == 404);
    CHECK(error_of(unknown) == "Review not found");
    CHECK(dismiss(server, alice, f.x, "review-1").status == 404);
    auto other_build = dismiss(server, alice, f.x, on_reference["id"]);
    CHECK(other_build.status == 404);
    CHECK(error_of(other_build) == "Review not found");

    // A draft (what comments added to a review start) cannot be dismissed and is private.
    {
        auto db = open_server_database(server);
        *db << "INSERT INTO reviews (build_id, project_id, user_id, state, created_at, "
               "updated_at) SELECT b.id, b.project_id, u.id, 'pending', 1, 1 FROM builds b, users "
               "u WHERE b.number = :number AND u.slug = 'bob'",
            soci::use(f.x);
    }
    auto bob_sees = list_reviews(server, bob, f.x);
    REQUIRE(bob_sees.size() == 2);
    CHECK(bob_sees[0]["state"] == "pending");  // created first
    CHECK(list_reviews(server, alice, f.x).size() == 1);
    const std::string draft = bob_sees[0]["id"];
    auto pending = dismiss(server, alice, f.x, draft);
    CHECK(pending.status == 400);
    CHECK(error_of(pending) == "You cannot dismiss a pending review");

    // Bob's draft is the latest review of nobody else: Alice's approval still counts. When Bob
    // submits, the draft becomes his review (same id).
    CHECK(get_build(server, f.x)["status"] == "accepted");
    auto submitted = submit(server, bob, f.x, {{"event", "REJECT"}});
    CHECK(submitted.json()["id"] == draft);
    CHECK(submitted.json()["state"] == "rejected");
    CHECK(get_build(server, f.x)["status"] == "rejected");

    REQUIRE(dismiss(server, alice, f.x, on_x["id"]).status == 200);
    auto twice = dismiss(server, alice, f.x, on_x["id"]);
    CHECK(twice.status == 400);
    CHECK(error_of(twice) == "Review already dismissed");
}

TEST_CASE("two reviewers approving at the same instant leave exactly two reviews") {
    ReviewedBranch f;
    auto& server = f.server;
    const auto bob = member_token(server, "bob", "member");
    const auto carol = member_token(server, "carol", "member");
    std::vector<int> statuses(2);
    std::thread first([&] {
        statuses[0] = submit(server, bob, f.x, {{"event", "APPROVE"}}).status;
    });
    std::thread second([&] {
        statuses[1] = submit(server, carol, f.x, {{"event", "APPROVE"}}).status;
    });
    first.join();
    second.join();
    CHECK(statuses == std::vector<int>{200, 200});
    CHECK(review_count(server) == 2);
    CHECK(get_build(server, f.x)["status"] == "accepted");
}

TEST_CASE("approvals carry forward to a later build of the branch with the same changes") {
    ReviewedBranch f;
    auto& server = f.server;
    const auto bob = member_token(server, "bob", "member");
    approve(server, server.personal_token(), f.x);
    approve(server, bob, f.x);

    // Same change on the next commit of the branch: approved on behalf of both reviewers, once
    // the build's conclusion reached the reviews plugin.
    const auto carried = [&](const json& concluded) {
        wait_jobs_settled(server, "reviews.carry_approvals");
        return get_build(server, number_of(concluded));
    };
    auto again = carried(f.push_check(sha('c'), block, {{"referenceCommit", sha('a')}}));
    CHECK(again["status"] == "accepted");
    CHECK(again["review"]["automatic"] == true);
    CHECK(again["review"]["inheritedFrom"]["buildNumber"] == f.x);
    CHECK(again["review"]["inheritedFrom"]["reviewIds"].size() == 2);
    auto inherited = list_reviews(server, bob, number_of(again));
    REQUIRE(inherited.size() == 2);
    CHECK(inherited[0]["automatic"] == true);
    CHECK(inherited[0]["state"] == "approved");
    CHECK_FALSE(inherited[0]["inheritedFrom"].is_null());

    // Another change asks for review again.
    auto different = carried(f.push_check(sha('d'), other_block, {{"referenceCommit", sha('a')}}));
    CHECK(different["status"] == "changes-detected");
    CHECK(different["review"].is_null());
    CHECK(list_reviews(server, bob, number_of(different)).empty());
    // So does the same change on another branch.
    auto elsewhere =
        carried(f.push_check(sha('e'), block, {{"referenceCommit", sha('a')}}, "other"));
    CHECK(elsewhere["status"] == "changes-detected");
}

TEST_CASE("with the reviews plugin disabled, the review routes answer 404") {
    InProcessServer server;  // auth and builds only
    auto result =
        http_json("POST", reviews_url(server, 1), {{"event", "APPROVE"}}, server.personal_token());
    CHECK(result.status == 404);
}
