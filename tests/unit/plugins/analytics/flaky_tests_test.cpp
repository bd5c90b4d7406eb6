// GET /projects/{owner}/{project}/analytics/flaky on a real server: the project's tests with
// the highest flakiness, with the same metrics the diff list shows, and its validation.
#include <doctest/doctest.h>

#include <ctime>

#include "loupe/json.hpp"
#include "support/admin_cli.hpp"
#include "support/midday_time_zone.hpp"
#include "support/scoped_time_zone.hpp"
#include "unit/plugins/builds/processing_client.hpp"

using namespace loupe::test;
using nlohmann::json;

TEST_CASE("midday time zone: local noon at every hour of the UTC day, on any date") {
    constexpr int64_t hour_ms = 3'600'000;
    // 2028-02-29T00:00:00.250Z, then every hour of that day and of 1969-12-31.
    for (const int64_t midnight : {int64_t{1835395200250}, int64_t{-86'400'000}}) {
        for (int64_t hour = 0; hour < 24; ++hour) {
            const int64_t now = midnight + hour * hour_ms + int64_t{59} * 60'000;
            const std::string zone = midday_time_zone(now);
            CAPTURE(zone);
            const ScopedTimeZone scoped(zone);
            const auto seconds = static_cast<std::time_t>(now / 1000);
            std::tm local{};
            REQUIRE(localtime_r(&seconds, &local) != nullptr);
            CHECK(local.tm_hour == 12);
            CHECK(local.tm_min == 59);
            CHECK(local.tm_isdst == 0);
        }
    }
}

TEST_CASE("analytics flaky tests: most flaky first, the diff list's metrics, validation") {
    // Counters are per local day: the server's local day must not turn between the builds and
    // the LAST_24_HOURS question below (which sums the days that started in the last 24 hours).
    ServerProcess server(ServerOptions{
        {"auth", "builds", "analytics"}, {}, {{"TZ", midday_time_zone(loupe::now_ms())}}});
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
