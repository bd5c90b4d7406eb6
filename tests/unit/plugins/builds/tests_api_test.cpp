// The Tests API on a real server: GET /projects/{owner}/{project}/tests (the tests that still
// run, flakiest first, filtered and paged), GET .../tests/{testId} (metrics, series, status,
// first and last change), GET .../tests/{testId}/changes (distinct changes, most frequent first,
// ignored or not) and GET .../ignored-changes, with the refusals of bad input.
#include <doctest/doctest.h>
#include <soci/soci.h>

#include "ids/sqids.hpp"
#include "loupe/json.hpp"
#include "processing_client.hpp"
#include "support/admin_cli.hpp"
#include "support/in_process_server.hpp"

using namespace loupe::test;
using nlohmann::json;

namespace {

HttpResult api_get(const TestServer& server, const std::string& path, const std::string& token) {
    return http_get(server.base_url() + "/v2/projects/default/default" + path, token);
}

json ok_json(const TestServer& server, const std::string& path) {
    auto result = api_get(server, path, server.personal_token());
    REQUIRE_MESSAGE(result.status == 200, path << ": " << result.body);
    return result.json();
}

std::vector<std::string> names_of(const json& page) {
    std::vector<std::string> names;
    for (const auto& test : page["results"]) {
        names.push_back(test["name"].get<std::string>() + "@" +
                        test["buildName"].get<std::string>());
    }
    return names;
}

// A build of `main` (a reference build) whose baseline is the build of commit `parent`.
json main_build(const TestServer& server, const std::vector<Shot>& shots, char commit,
                std::optional<char> parent, const std::string& name = "default") {
    json body = {{"commit", sha(commit)}, {"branch", "main"}, {"name", name}};
    if (parent) {
        body["referenceCommit"] = sha(*parent);
    }
    return wait_concluded(server, push_shots(server, shots, body)["number"]);
}

}  // namespace

TEST_CASE("tests API: the tests that still run, their metrics and their recurring changes") {
    InProcessServer server;
    const Blob home = png_blob("home");
    const Blob home_changed = png_blob("home", block);
    const Blob about = png_blob("about");
    const json child_fields = {{"parentName", "home"}};
    // Four reference builds of `default`: `home` changes back and forth (one recurring change),
    // `about` never changes, `gone` is dropped after the first, `home child` is a child shot.
    main_build(server,
               {{"home", home},
                {"about", about},
                {"gone", png_blob("gone")},
                {"home child", png_blob("child"), child_fields}},
               'a', std::nullopt);
    main_build(
        server,
        {{"home", home_changed}, {"about", about}, {"home child", png_blob("child"), child_fields}},
        'b', 'a');
    main_build(server,
               {{"home", home}, {"about", about}, {"home child", png_blob("child"), child_fields}},
               'c', 'b');
    const json last = main_build(
        server,
        {{"home", home_changed}, {"about", about}, {"home child", png_blob("child"), child_fields}},
        'd', 'c');
    main_build(server, {{"home", home}}, 'e', std::nullopt, "mobile");
    // A branch build (a check, not a reference) with another change of `home`: not counted.
    wait_concluded(server, push_shots(server, {{"home", png_blob("home", Paint{30, 20, 8, 8})}},
                                      {{"commit", sha('f')},
                                       {"branch", "feature"},
                                       {"referenceCommit", sha('d')}})["number"]);

    // The diff list gives the test ids; the Tests API agrees with its metrics.
    const json last_diffs =
        list_diffs(server, last["number"], "?metricsPeriod=LAST_24_HOURS")["results"];
    json home_in_diffs;
    for (const auto& diff : last_diffs) {
        if (diff["name"] == "home") {
            home_in_diffs = diff;
        }
    }
    REQUIRE(home_in_diffs.is_object());
    // The third occurrence in 7 days ignored the change (the project's auto-ignore).
    CHECK(home_in_diffs["change"]["ignored"] == true);
    const std::string home_id = home_in_diffs["test"]["id"];
    const std::string change_id = home_in_diffs["change"]["id"];

    {
        INFO("list: flakiest first, the tests of the latest reference builds only");
        const json page = ok_json(server, "/tests?metricsPeriod=LAST_24_HOURS");
        CHECK(page["pageInfo"] == json{{"total", 3}, {"page", 1}, {"perPage", 30}});
        REQUIRE(page["results"].size() == 3);
        CHECK(page["results"][0]["id"] == home_id);
        CHECK(page["results"][0]["name"] == "home");
        CHECK(page["results"][0]["buildName"] == "default");
        CHECK(page["results"][0]["metrics"] == home_in_diffs["test"]["metrics"]);
        CHECK(page["results"][0]["metrics"]["changes"] == 3);
        CHECK(page["results"][0]["metrics"]["flakiness"].get<double>() > 0);
        // Equal flakiness: the most recently created test first (home@mobile after about).
        CHECK(names_of(page) ==
              std::vector<std::string>{"home@default", "home@mobile", "about@default"});
        CHECK(page["results"][2]["metrics"]["flakiness"] == 0);

        CHECK(names_of(ok_json(server, "/tests?buildName=mobile")) ==
              std::vector<std::string>{"home@mobile"});
        CHECK(names_of(ok_json(server, "/tests?search=%20HOM%20&buildName=default")) ==
              std::vector<std::string>{"home@default"});
        // LIKE's wildcards are searched as they are.
        CHECK(ok_json(server, "/tests?search=%25")["results"].empty());
        CHECK(ok_json(server, "/tests?search=h_me")["results"].empty());
        const json second = ok_json(server, "/tests?perPage=1&page=2&metricsPeriod=LAST_24_HOURS");
        CHECK(second["pageInfo"] == json{{"total", 3}, {"page", 2}, {"perPage", 1}});
        CHECK(names_of(second) == std::vector<std::string>{"home@mobile"});
        CHECK(ok_json(server, "/tests?page=9")["results"].empty());
        // The project's token reads them too.
        CHECK(api_get(server, "/tests", server.project_token()).status == 200);
    }

    {
        INFO("get: metrics, series, status and the first and last change");
        const json test = ok_json(server, "/tests/" + home_id + "?metricsPeriod=LAST_24_HOURS");
        CHECK(test["id"] == home_id);
        CHECK(test["name"] == "home");
        CHECK(test["buildName"] == "default");
        CHECK(test["status"] == "ongoing");
        CHECK(test["metrics"] == home_in_diffs["test"]["metrics"]);
        CHECK(test["url"] == server.base_url() + "/default/default/tests/" + home_id);
        CHECK(loupe::parse_iso_time(test["createdAt"].get<std::string>()).has_value());
        // 20-minute buckets over 24 hours, oldest first; the four diffs of `home` in reference
        // builds, three changes, none unique (the same mask came back).
        const auto& series = test["series"];
        CHECK(series.size() >= 72);
        CHECK(series.size() <= 74);
        int64_t total = 0;
        int64_t changes = 0;
        int64_t unique = 0;
        for (std::size_t i = 0; i < series.size(); ++i) {
            total += series[i]["total"].get<int64_t>();
            changes += series[i]["changes"].get<int64_t>();
            unique += series[i]["uniqueChanges"].get<int64_t>();
            if (i > 0) {
                CHECK(*loupe::parse_iso_time(series[i]["date"].get<std::string>()) -
                          *loupe::parse_iso_time(series[i - 1]["date"].get<std::string>()) ==
                      20 * 60 * 1000);
            }
        }
        CHECK(total == 4);
        CHECK(changes == 3);
        CHECK(unique == 0);
        // The first change is build 2's, the last the branch build's (any build counts).
        CHECK(test["firstSeenChange"]["buildNumber"] == 2);
        CHECK(test["lastSeenChange"]["buildNumber"] == 6);
        CHECK(test["firstSeenChange"]["url"].is_string());
        CHECK(test["firstSeenChange"]["buildUrl"].get<std::string>().ends_with(
            "/default/default/builds/2"));

        // `about` never changed; `gone` is no longer in the latest build: removed.
        const json about_page = ok_json(server, "/tests?search=about");
        const json about_test =
            ok_json(server, "/tests/" + about_page["results"][0]["id"].get<std::string>());
        CHECK(about_test["firstSeenChange"].is_null());
        CHECK(about_test["lastSeenChange"].is_null());
        CHECK(about_test["metrics"]["flakiness"] == 0);
        auto db = open_server_database(server);
        const auto gone = query_number(*db, "SELECT id FROM build_tests WHERE name = 'gone'");
        const loupe::builds::Sqids argos_sqids("FN5LTPGRW98EB2X3ZYHDCU0AS7KJQV64MO1I", 4);
        const std::string gone_id = "DEFAULT-" + argos_sqids.encode({static_cast<uint64_t>(gone)});
        CHECK(ok_json(server, "/tests/" + gone_id)["status"] == "removed");
        CHECK(api_get(server, "/tests/" + home_id, server.project_token()).status == 200);
    }

    {
        INFO("changes: distinct, most frequent first, ignored or not");
        const json page =
            ok_json(server, "/tests/" + home_id + "/changes?metricsPeriod=LAST_24_HOURS");
        CHECK(page["pageInfo"] == json{{"total", 1}, {"page", 1}, {"perPage", 30}});
        REQUIRE(page["results"].size() == 1);
        const json& change = page["results"][0];
        CHECK(change["id"] == change_id);
        CHECK(change["ignored"] == true);
        CHECK(change["occurrences"] == 3);
        CHECK(change["firstSeen"]["buildNumber"] == 2);
        CHECK(change["lastSeen"]["buildNumber"] == 4);
        CHECK(change["diff"]["id"] == home_in_diffs["id"]);
        CHECK(change["diff"]["status"] == "ignored");
        CHECK(change["diff"]["change"]["id"] == change_id);
        CHECK(change["diff"]["test"]["id"] == home_id);

        auto change_action = [&](const std::string& action) {
            return http_json("POST",
                             server.base_url() + "/v2/projects/default/default/changes/" +
                                 change_id + "/" + action,
                             json::object(), server.personal_token())
                .status;
        };
        const json listed = ok_json(server, "/ignored-changes");
        CHECK(listed ==
              json{{"pageInfo", {{"total", 1}, {"page", 1}, {"perPage", 30}}},
                   {"results",
                    {{{"id", change_id},
                      {"test", {{"id", home_id}, {"name", "home"}, {"buildName", "default"}}}}}}});
        REQUIRE(change_action("unignore") == 200);
        const json under_review = ok_json(server, "/tests/" + home_id + "/changes?ignored=false");
        REQUIRE(under_review["results"].size() == 1);
        CHECK(under_review["results"][0]["ignored"] == false);
        CHECK(ok_json(server, "/tests/" + home_id + "/changes?ignored=true")["results"].empty());
        CHECK(ok_json(server, "/ignored-changes")["pageInfo"]["total"] == 0);
        REQUIRE(change_action("ignore") == 200);
        CHECK(ok_json(server, "/tests/" + home_id + "/changes?ignored=true")["results"].size() ==
              1);
        CHECK(ok_json(server, "/tests/" + home_id + "/changes?ignored=false")["results"].empty());
        CHECK(api_get(server, "/ignored-changes", server.project_token()).status == 200);
        CHECK(ok_json(server, "/ignored-changes?page=2")["results"].empty());
    }

    {
        INFO("bad input: JSON errors with the right status");
        auto check_error = [&](const std::string& path, int status, const std::string& error) {
            auto result = api_get(server, path, server.personal_token());
            CHECK_MESSAGE(result.status == status, path << ": " << result.body);
            CHECK_MESSAGE(error_of(result) == error, path << ": " << result.body);
            return result;
        };
        auto bad_period = check_error("/tests?metricsPeriod=LAST_YEAR", 400, "Invalid request");
        CHECK(bad_period.json()["details"][0]["message"].get<std::string>().find("metricsPeriod") !=
              std::string::npos);
        check_error("/tests?page=0", 400, "Invalid request");
        check_error("/tests?perPage=101", 400, "Invalid request");
        check_error("/tests/" + home_id + "?metricsPeriod=yesterday", 400, "Invalid request");
        check_error("/tests/" + home_id + "/changes?ignored=maybe", 400, "Invalid request");
        check_error("/tests/" + home_id + "/changes?perPage=abc", 400, "Invalid request");
        check_error("/ignored-changes?page=-1", 400, "Invalid request");
        // Unknown, malformed, another project's or a non-canonical test id: 404.
        const std::string sqid = home_id.substr(home_id.rfind('-') + 1);
        for (const std::string& unknown :
             {std::string("DEFAULT-FFFFFF"), std::string("nope"), "OTHER-" + sqid,
              "default-" + sqid, std::string("DEFAULT-"), "-" + sqid}) {
            check_error("/tests/" + unknown, 404, "Test not found");
            check_error("/tests/" + unknown + "/changes", 404, "Test not found");
        }
        CHECK(
            http_get(server.base_url() + "/v2/projects/default/nope/tests", server.personal_token())
                .status == 404);
        CHECK(http_get(server.base_url() + "/v2/projects/default/default/tests").status == 401);
    }
}

TEST_CASE("a test's history: its diffs across builds, newest first, with each baseline's build") {
    InProcessServer server;
    main_build(server, {{"home", png_blob("home")}}, 'a', std::nullopt);
    main_build(server, {{"home", png_blob("home", block)}}, 'b', 'a');
    const json feature =
        wait_concluded(server, push_shots(server, {{"home", png_blob("home")}},
                                          {{"commit", sha('c')},
                                           {"branch", "feature"},
                                           {"referenceCommit", sha('b')}})["number"]);
    const std::string test_id = list_diffs(server, feature["number"])["results"][0]["test"]["id"];
    const std::string history =
        server.base_url() + "/_loupe/projects/default/default/tests/" + test_id + "/history";
    auto all = http_get(history, server.personal_token());
    REQUIRE_MESSAGE(all.status == 200, all.body);
    const json results = all.json()["results"];
    REQUIRE(results.size() == 3);
    CHECK(results[0]["build"]["number"] == feature["number"]);
    CHECK(results[0]["build"]["branch"] == "feature");
    CHECK(results[0]["diff"]["status"] == "changed");
    CHECK(results[0]["baseBuildNumber"] == results[1]["build"]["number"]);
    CHECK(results[1]["diff"]["status"] == "changed");
    CHECK(results[2]["diff"]["status"] == "added");
    CHECK(results[2]["baseBuildNumber"].is_null());

    auto main_only = http_get(history + "?branch=main&limit=1", server.personal_token());
    REQUIRE(main_only.status == 200);
    REQUIRE(main_only.json()["results"].size() == 1);
    CHECK(main_only.json()["results"][0]["build"]["number"] == results[1]["build"]["number"]);
    CHECK(http_get(history + "?limit=0", server.personal_token()).status == 400);
    CHECK(http_get(history + "?limit=101", server.personal_token()).status == 400);
    auto unknown = http_get(server.base_url() +
                                "/_loupe/projects/default/default/tests/DEFAULT-"
                                "ZZZZZZ/history",
                            server.personal_token());
    CHECK(unknown.status == 404);
    // A project token is CI's: the page's endpoints take a person.
    CHECK(http_get(history, server.project_token()).status == 401);
}
