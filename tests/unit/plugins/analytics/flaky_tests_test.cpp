// GET /projects/{owner}/{project}/analytics/flaky on a real server: the project's tests with
// the highest flakiness, with the same metrics the diff list shows, and its validation.
#include <doctest/doctest.h>

#include "support/admin_cli.hpp"
#include "unit/plugins/builds/processing_client.hpp"

using namespace loupe::test;
using nlohmann::json;

TEST_CASE("analytics flaky tests: most flaky first, the diff list's metrics, validation") {
    ServerProcess server(ServerOptions{{"auth", "builds", "analytics"}, {}, {}});
    const auto& pat = server.personal_token();
    const std::string url = server.base_url() + "/v2/projects/default/default/analytics/flaky";

    auto empty = http_get(url, pat);
    REQUIRE_MESSAGE(empty.status == 200, empty.body);
    CHECK(empty.json()["tests"] == json::array());
    CHECK(empty.json()["period"] == "LAST_7_DAYS");

    wait_concluded(
        server,
        push_shots(server, {{"x", png_blob("x")}, {"y", png_blob("y")}, {"z", png_blob("z")}},
                   {{"commit", sha('a')}, {"branch", "main"}})["number"]);
    auto second =
        wait_concluded(server, push_shots(server,
                                          {{"x", png_blob("x", Paint{10, 8, 14, 10})},
                                           {"y", png_blob("y")},
                                           {"z", png_blob("z", Paint{40, 30, 5, 5})}},
                                          {{"commit", sha('b')},
                                           {"branch", "main"},
                                           {"parentCommits", {sha('b'), sha('a')}}})["number"]);
    std::map<std::string, json> listed;
    const auto diffs = list_diffs(server, second["number"].get<int64_t>());
    for (const auto& diff : diffs["results"]) {
        listed[diff["name"]] = diff["test"];
    }

    auto result = http_get(url + "?period=LAST_24_HOURS&limit=20", pat);
    REQUIRE_MESSAGE(result.status == 200, result.body);
    const auto tests = result.json()["tests"];
    // y never changed: flakiness 0, not listed. x and z changed once in two diffs each.
    REQUIRE(tests.size() == 2);
    CHECK(tests[0] == listed["x"]);
    CHECK(tests[1] == listed["z"]);
    CHECK(tests[0]["metrics"]["flakiness"] == 0.25);
    CHECK(result.json()["period"] == "LAST_24_HOURS");

    auto limited = http_get(url + "?limit=1", server.project_token());
    REQUIRE(limited.status == 200);
    CHECK(limited.json()["tests"] == json::array({listed["x"]}));

    auto bad_period = http_get(url + "?period=LAST_WEEK", pat);
    CHECK(bad_period.status == 400);
    CHECK(first_detail(bad_period) ==
          R"(period is Invalid option: expected one of "LAST_24_HOURS"|"LAST_3_DAYS"|)"
          R"("LAST_7_DAYS"|"LAST_30_DAYS"|"LAST_90_DAYS")");
    for (const char* limit : {"0", "101", "abc", "-1", "1.5"}) {
        CAPTURE(limit);
        auto bad = http_get(url + "?limit=" + limit, std::nullopt);
        CHECK(bad.status == 400);
        CHECK(first_detail(bad).rfind("limit is ", 0) == 0);
    }
    CHECK(http_get(url, std::nullopt).status == 401);
    CHECK(http_get(server.base_url() + "/v2/projects/default/nope/analytics/flaky", pat).status ==
          404);
    CHECK(http_get(server.base_url() + "/v2/projects/other/default/analytics/flaky", pat).status ==
          401);
}
