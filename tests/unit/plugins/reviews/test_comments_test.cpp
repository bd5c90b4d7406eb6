// Comments on tests (not on one build) and test subscriptions, on a real server (SQLite or
// PostgreSQL): the same comment set as a build's, the test named by its public id, refusals; and
// the upgrade that made a comment's build optional keeps every build comment, reply, reaction
// and subscription.
#include <doctest/doctest.h>
#include <soci/soci.h>

#include "db/database_impl.hpp"
#include "db/migration_runner.hpp"
#include "loupe/db/migrations.hpp"
#include "support/admin_cli.hpp"
#include "support/in_process_server.hpp"
#include "support/server_database.hpp"
#include "unit/plugins/builds/processing_client.hpp"

using namespace loupe::test;
using nlohmann::json;

// The reviews plugin's track (plugins/reviews/migrations.cpp, compiled into the tests; its header's
// name is shared by every plugin's, so it is declared here).
namespace loupe::reviews {
void add_migrations(Migrations& migrations);
}

namespace {

/// A concluded build whose screenshot `x` is the test the comments are about.
struct TestedProject {
    InProcessServer server{with_reviews()};
    std::string test_id;
    int64_t build = 0;

    TestedProject() {
        build = number_of(wait_concluded(
            server, number_of(push_shots(server, {{"x", png_blob("x")}},
                                         {{"commit", sha('a')}, {"branch", "main"}}))));
        test_id = list_diffs(server, build)["results"][0]["test"]["id"];
    }
    std::string url(const std::string& rest = "") const {
        return server.base_url() + "/v2/projects/default/default/tests/" + test_id + rest;
    }
    const std::string& alice() const { return server.personal_token(); }
    json posted(const json& body) const {
        auto result = http_json("POST", url("/comments"), body, alice());
        REQUIRE_MESSAGE(result.status == 201, result.body);
        return result.json();
    }
};

long long sql_number(const TestServer& server, const std::string& sql) {
    auto db = open_server_database(server);
    return query_number(*db, sql);
}

class QuietLogger final : public loupe::Logger {
public:
    void log(loupe::LogLevel, std::string_view, std::initializer_list<loupe::LogField>) override {}
};

/// The steps of the reviews plugin's track up to `last`.
class StepsUpTo final : public loupe::Migrations {
public:
    explicit StepsUpTo(int last) : last_(last) {}
    void add(int version, std::string name, std::string sql) override {
        if (version <= last_) {
            track.steps.push_back({version, std::move(name), std::move(sql)});
        }
    }
    loupe::MigrationTrack track{"reviews", {}};

private:
    int last_;
};

}  // namespace

TEST_CASE("a thread on a test: its comments name the test, not a build, and stay off builds") {
    TestedProject f;
    auto root = f.posted({{"body", "This test is **flaky** on Mondays"}});
    CHECK(root["testId"] == f.test_id);
    CHECK(root["buildId"].is_null());
    CHECK(root["mediaId"].is_null());
    CHECK(root["text"] == "This test is flaky on Mondays");
    auto reply = f.posted({{"body", "agreed"}, {"threadId", root["id"]}});
    CHECK(reply["threadId"] == root["id"]);

    auto listed = http_get(f.url("/comments"), f.alice());
    REQUIRE_MESSAGE(listed.status == 200, listed.body);
    REQUIRE(listed.json().size() == 2);
    CHECK(listed.json()[0]["id"] == root["id"]);
    CHECK(listed.json()[1]["id"] == reply["id"]);
    auto one = http_get(f.url("/comments/" + reply["id"].get<std::string>()), f.alice());
    CHECK(one.status == 200);
    CHECK(one.json()["testId"] == f.test_id);

    // The build that holds the test lists none of them, and does not find them by id.
    const std::string build_comments = f.server.base_url() +
                                       "/v2/projects/default/default/builds/" +
                                       std::to_string(f.build) + "/comments";
    CHECK(http_get(build_comments, f.alice()).json() == json::array());
    CHECK(http_get(build_comments + "/" + root["id"].get<std::string>(), f.alice()).status == 404);
    // Commenting followed the test and the thread.
    CHECK(sql_number(f.server, "SELECT COUNT(*) FROM test_subscriptions WHERE subscribed = 1") ==
          1);
    CHECK(sql_number(f.server, "SELECT COUNT(*) FROM thread_subscriptions WHERE subscribed = 1") ==
          1);
}

TEST_CASE("a test's comments: reactions, resolve, edits and deletion by the author only") {
    TestedProject f;
    auto root = f.posted({{"body", "look"}});
    const std::string id = root["id"];
    auto reacted =
        http_json("POST", f.url("/comments/" + id + "/reactions"), {{"emoji", "👍"}}, f.alice());
    REQUIRE_MESSAGE(reacted.status == 200, reacted.body);
    CHECK(reacted.json()["reactions"][0]["count"] == 1);
    auto unreacted = http_json("DELETE", f.url("/comments/" + id + "/reactions?emoji=%F0%9F%91%8D"),
                               nullptr, f.alice());
    CHECK(unreacted.json()["reactions"] == json::array());

    auto resolved = http_json("POST", f.url("/comments/" + id + "/resolve"), nullptr, f.alice());
    REQUIRE_MESSAGE(resolved.status == 200, resolved.body);
    CHECK(resolved.json()["resolvedAt"].is_string());
    auto reopened = http_json("POST", f.url("/comments/" + id + "/unresolve"), nullptr, f.alice());
    CHECK(reopened.json()["resolvedAt"].is_null());

    const std::string bob = member_token(f.server, "bob", "member");
    auto not_author = http_json("PATCH", f.url("/comments/" + id), {{"body", "mine now"}}, bob);
    CHECK(not_author.status == 403);
    auto edited = http_json("PATCH", f.url("/comments/" + id), {{"body", "look again"}}, f.alice());
    REQUIRE_MESSAGE(edited.status == 200, edited.body);
    CHECK(edited.json()["text"] == "look again");
    CHECK(edited.json()["editedAt"].is_string());
    CHECK(http_json("DELETE", f.url("/comments/" + id), nullptr, bob).status == 403);
    CHECK(http_json("DELETE", f.url("/comments/" + id), nullptr, f.alice()).status == 200);
    CHECK(http_get(f.url("/comments"), f.alice()).json() == json::array());
}

TEST_CASE("test subscriptions: explicit choices are kept, and commenting never overrides one") {
    TestedProject f;
    auto off = http_json("DELETE", f.url("/subscription"), nullptr, f.alice());
    REQUIRE_MESSAGE(off.status == 200, off.body);
    CHECK(off.json() == json{{"subscribed", false}});
    f.posted({{"body", "still not following"}});
    CHECK(sql_number(f.server, "SELECT subscribed FROM test_subscriptions") == 0);
    const std::string own = f.server.base_url() + "/_loupe/projects/default/default/tests/" +
                            f.test_id + "/subscription";
    CHECK(http_get(own, f.alice()).json() == json{{"subscribed", false}});
    auto on = http_json("POST", f.url("/subscription"), nullptr, f.alice());
    CHECK(on.json() == json{{"subscribed", true}});
    CHECK(sql_number(f.server, "SELECT subscribed FROM test_subscriptions") == 1);
    CHECK(http_get(own, f.alice()).json() == json{{"subscribed", true}});
}

TEST_CASE("refusals on a test's comments") {
    TestedProject f;
    // A test id of another form, of another project, or of no test: 404 before anything else.
    for (const std::string& wrong : {std::string("NOPE-1"), std::string("DEFAULT-zzzz"),
                                     "OTHER-" + f.test_id.substr(f.test_id.find('-') + 1)}) {
        auto result = http_json(
            "POST",
            f.server.base_url() + "/v2/projects/default/default/tests/" + wrong + "/comments",
            {{"body", "hi"}}, f.alice());
        CHECK_MESSAGE(result.status == 404, wrong << ": " << result.body);
        CHECK(error_of(result) == "Test not found");
    }
    // A test has no diff to anchor to and no review to join.
    auto anchored = http_json("POST", f.url("/comments"),
                              {{"body", "here"},
                               {"screenshotDiffId", "1"},
                               {"anchor", {{"type", "point"}, {"x", 0.5}, {"y", 0.5}}}},
                              f.alice());
    CHECK(anchored.status == 400);
    CHECK(error_of(anchored) == "A comment on a test cannot be anchored to a screenshot diff");
    CHECK(http_json("POST", f.url("/comments"), {{"body", ""}}, f.alice()).status == 400);
    // The project token of CI reads tests but never comments (a person does).
    CHECK(
        http_json("POST", f.url("/comments"), {{"body", "ci"}}, f.server.project_token()).status ==
        401);
    // A contributor who only views the project reads, and may not comment.
    const std::string viewer = member_token(f.server, "vera", "contributor");
    admin(f.server, {"project", "grant", "--project", "default/default", "--user", "vera",
                     "--level", "viewer"});
    CHECK(http_get(f.url("/comments"), viewer).status == 200);
    auto refused = http_json("POST", f.url("/comments"), {{"body", "me too"}}, viewer);
    CHECK(refused.status == 403);
    CHECK(error_of(refused) == "You do not have permission to comment on this test");
}

TEST_CASE("the upgrade to comments on tests keeps every build comment, reply and reaction") {
    // A server from before: builds, but the reviews tables only up to their fourth step.
    ServerProcess server;
    const int64_t number = number_of(
        wait_concluded(server, number_of(push_shots(server, {{"x", png_blob("x")}},
                                                    {{"commit", sha('a')}, {"branch", "main"}}))));
    {
        auto database = loupe::open_database(server.database_url(), 1);
        StepsUpTo steps(4);
        loupe::reviews::add_migrations(steps);
        REQUIRE(steps.track.steps.size() == 4);
        QuietLogger log;
        loupe::run_migrations(*database, {steps.track}, log);
        auto session = database->session();
        *session
            << "INSERT INTO comments (public_id, build_id, project_id, author_id, body, text, "
               "created_at) SELECT 'comment-root', b.id, b.project_id, "
               "(SELECT MIN(id) FROM users), '{\"type\":\"doc\",\"content\":[]}', 'root', 1000 "
               "FROM builds b";
        *session << "INSERT INTO comments (public_id, build_id, project_id, thread_id, author_id, "
                    "body, text, created_at) SELECT 'comment-reply', build_id, project_id, id, "
                    "author_id, body, 'reply', 2000 FROM comments WHERE public_id = 'comment-root'";
        *session << "INSERT INTO comment_reactions (comment_id, user_id, emoji, created_at) SELECT "
                    "id, author_id, '🎉', 3000 FROM comments WHERE public_id = 'comment-reply'";
        *session << "INSERT INTO thread_subscriptions (comment_id, user_id, subscribed, "
                    "updated_at) SELECT id, author_id, 0, 3000 FROM comments WHERE public_id = "
                    "'comment-root'";
    }
    server.restart(with_reviews().plugins);

    const std::string url = server.base_url() + "/v2/projects/default/default/builds/" +
                            std::to_string(number) + "/comments";
    auto listed = http_get(url, server.personal_token());
    REQUIRE_MESSAGE(listed.status == 200, listed.body);
    REQUIRE(listed.json().size() == 2);
    CHECK(listed.json()[0]["id"] == "comment-root");
    CHECK(listed.json()[0]["testId"].is_null());
    CHECK(listed.json()[1]["threadId"] == "comment-root");
    CHECK(listed.json()[1]["reactions"][0]["emoji"] == "🎉");
    CHECK(sql_number(server, "SELECT subscribed FROM thread_subscriptions") == 0);
    // New comments take new ids after the kept ones.
    auto posted = http_json("POST", url, {{"body", "after"}}, server.personal_token());
    REQUIRE_MESSAGE(posted.status == 201, posted.body);
    CHECK(sql_number(server, "SELECT COUNT(*) FROM comments") == 3);
    CHECK(sql_number(server, "SELECT MAX(id) FROM comments") == 3);
}
