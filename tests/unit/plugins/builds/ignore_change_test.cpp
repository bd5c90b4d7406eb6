// POST /projects/{owner}/{project}/changes/{changeId}/ignore and /unignore on a real server:
// the diff list follows, every change of state is audited, refusals come in order.
#include <doctest/doctest.h>
#include <soci/soci.h>

#include "processing_client.hpp"
#include "support/admin_cli.hpp"

using namespace loupe::test;
using nlohmann::json;

namespace {

HttpResult change_action(const ServerProcess& server, const std::string& change,
                         const std::string& action, const std::string& token,
                         const std::string& project = "default") {
    return http_json(
        "POST",
        server.base_url() + "/v2/projects/default/" + project + "/changes/" + change + "/" + action,
        json::object(), token);
}

}  // namespace

TEST_CASE("ignoring and unignoring a change: the diff list follows, each change is audited") {
    ServerProcess server;
    const Paint block{10, 8, 14, 10};
    wait_concluded(server, push_shots(server, {{"x", png_blob("x")}},
                                      {{"commit", sha('a')}, {"branch", "main"}})["number"]);
    auto check = wait_concluded(server, push_shots(server, {{"x", png_blob("x", block)}},
                                                   {{"commit", sha('b')},
                                                    {"branch", "feature"},
                                                    {"referenceCommit", sha('a')}})["number"]);
    const int64_t number = check["number"];
    const std::string change = list_diffs(server, number)["results"][0]["change"]["id"];
    const auto& alice = server.personal_token();

    auto ignored = change_action(server, change, "ignore", alice);
    REQUIRE_MESSAGE(ignored.status == 200, ignored.body);
    CHECK(ignored.json() == json{{"id", change}, {"ignored", true}, {"occurrences", 0}});
    CHECK(list_diffs(server, number)["results"][0]["change"]["ignored"] == true);
    CHECK(change_action(server, change, "ignore", alice).status == 200);  // idempotent
    auto db = open_database(server);
    CHECK(query_number(*db, "SELECT COUNT(*) FROM ignored_change_audit") == 1);

    auto unignored = change_action(server, change, "unignore", alice);
    REQUIRE(unignored.status == 200);
    CHECK(unignored.json()["ignored"] == false);
    CHECK(list_diffs(server, number)["results"][0]["change"]["ignored"] == false);
    CHECK(query_number(*db,
                       "SELECT COUNT(*) FROM ignored_change_audit WHERE action = 'unignore' AND "
                       "user_id IS NOT NULL") == 1);

    // Refusals, in order: token, scope and project, permission, feature, change.
    CHECK(change_action(server, change, "ignore", server.project_token()).status == 401);
    auto no_project = change_action(server, change, "ignore", alice, "nope");
    CHECK(no_project.status == 404);
    const auto viewer = member_token(server, "vic", "contributor");
    admin(server, {"project", "grant", "--project", "default/default", "--user", "vic", "--level",
                   "viewer"});
    auto forbidden = change_action(server, change, "ignore", viewer);
    CHECK(forbidden.status == 403);
    const std::vector<std::string> unknown_ids = {"1-zzzzzzzzzzzzzzzz", "999-0123456789abcdef",
                                                  "abc", change.substr(0, change.size() - 1)};
    for (const auto& bad : unknown_ids) {
        auto unknown = change_action(server, bad, "ignore", alice);
        CHECK(unknown.status == 404);
        CHECK(error_of(unknown) == "Change not found");
    }
    *db << "INSERT INTO build_settings (project_id, ignore_enabled) SELECT id, 0 FROM projects";
    auto disabled = change_action(server, change, "ignore", alice);
    CHECK(disabled.status == 400);
    CHECK(error_of(disabled) == "Ignoring changes is disabled for this project");
    CHECK(query_number(*db, "SELECT COUNT(*) FROM ignored_changes") == 0);
    CHECK(query_number(*db, "SELECT COUNT(*) FROM ignored_change_audit") == 2);
}
