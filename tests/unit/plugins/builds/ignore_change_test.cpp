// POST /projects/{owner}/{project}/changes/{changeId}/ignore and /unignore on a real server:
// the diff list follows, every change of state is audited, refusals come in order.
#include <doctest/doctest.h>
#include <soci/soci.h>

#include "ids/sqids.hpp"
#include "processing_client.hpp"
#include "support/admin_cli.hpp"
#include "support/in_process_server.hpp"

using namespace loupe::test;
using nlohmann::json;

namespace {

HttpResult change_action(const TestServer& server, const std::string& change,
                         const std::string& action, const std::string& token,
                         const std::string& project = "default") {
    return http_json(
        "POST",
        server.base_url() + "/v2/projects/default/" + project + "/changes/" + change + "/" + action,
        json::object(), token);
}

}  // namespace

TEST_CASE("ignoring and unignoring a change: the diff list follows, each change is audited") {
    InProcessServer server;
    const Paint block{10, 8, 14, 10};
    wait_concluded(server, push_shots(server, {{"x", png_blob("x")}},
                                      {{"commit", sha('a')}, {"branch", "main"}})["number"]);
    auto check = wait_concluded(server, push_shots(server, {{"x", png_blob("x", block)}},
                                                   {{"commit", sha('b')},
                                                    {"branch", "feature"},
                                                    {"referenceCommit", sha('a')}})["number"]);
    const int64_t number = check["number"];
    const auto diff = list_diffs(server, number)["results"][0];
    const std::string change = diff["change"]["id"];
    const auto& alice = server.personal_token();
    // Argos's form: the test's public id (project name in upper case, sqid of the test's number)
    // and the fingerprint with its version prefix written v1.
    auto db = open_server_database(server);
    const auto test_number = query_number(*db, "SELECT id FROM build_tests WHERE name = 'x'");
    const std::string test_id = diff["test"]["id"];
    CHECK(test_id.starts_with("DEFAULT-"));
    const loupe::builds::Sqids argos_sqids("FN5LTPGRW98EB2X3ZYHDCU0AS7KJQV64MO1I", 4);
    CHECK(argos_sqids.decode(test_id.substr(8)) ==
          std::vector<uint64_t>{static_cast<uint64_t>(test_number)});
    std::string fingerprint;
    *db << "SELECT fingerprint FROM screenshot_diffs WHERE fingerprint IS NOT NULL",
        soci::into(fingerprint);
    CHECK(change == test_id + "-v1" + fingerprint.substr(fingerprint.rfind(':') + 1));

    auto ignored = change_action(server, change, "ignore", alice);
    REQUIRE_MESSAGE(ignored.status == 200, ignored.body);
    CHECK(ignored.json() == json{{"id", change}, {"ignored", true}, {"occurrences", 0}});
    CHECK(list_diffs(server, number)["results"][0]["change"]["ignored"] == true);
    CHECK(change_action(server, change, "ignore", alice).status == 200);  // idempotent
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
    // The form Loupe wrote before (<test number>-<hash>) still names the change; the answer
    // gives the Argos form.
    const std::string legacy =
        std::to_string(test_number) + "-" + fingerprint.substr(fingerprint.rfind(':') + 1);
    auto by_legacy = change_action(server, legacy, "unignore", alice);
    CHECK(by_legacy.status == 200);
    CHECK(by_legacy.json()["id"] == change);
    const std::string other_test =
        "DEFAULT-" + argos_sqids.encode({static_cast<uint64_t>(test_number + 1)});
    std::vector<std::string> unknown_ids = {"1-zzzzzzzzzzzzzzzz", "999-0123456789abcdef", "abc",
                                            change.substr(0, change.size() - 1),
                                            other_test + change.substr(test_id.size())};
    std::string lower_case = change;  // sqids are case-sensitive
    for (char& c : lower_case) {
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    if (lower_case.substr(8, test_id.size() - 8) != test_id.substr(8)) {
        unknown_ids.push_back(lower_case);
    }
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
