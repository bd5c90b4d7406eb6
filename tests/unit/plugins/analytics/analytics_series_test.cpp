// Account analytics without a server: the query's validation rules, UTC buckets (ISO weeks
// from Monday, calendar months, leap days) and the series assembled from per-bucket counts.
#include <doctest/doctest.h>

#include <map>

#include "analytics_json.hpp"
#include "analytics_query.hpp"
#include "buckets.hpp"
#include "loupe/http/http_error.hpp"
#include "series.hpp"

namespace loupe::analytics {
namespace {

using builds::ActivityBucket;
using builds::BuildActivityRow;

constexpr int64_t day = 86'400'000;
constexpr int64_t jan_22_2024 = 1705881600000;  // a Monday
constexpr int64_t jan_28_2024 = 1706400000000;  // a Sunday
constexpr int64_t jan_29_2024 = 1706486400000;  // a Monday
constexpr int64_t feb_01_2024 = 1706745600000;
constexpr int64_t feb_29_2024 = 1709164800000;
constexpr int64_t mar_01_2024 = 1709251200000;

QueryLookup lookup(std::multimap<std::string, std::string> values) {
    return [values = std::move(values)](std::string_view name) {
        QueryParam param;
        auto [first, last] = values.equal_range(std::string(name));
        for (auto it = first; it != last; ++it) {
            if (!param.value) {
                param.value = it->second;
            }
            ++param.count;
            param.values.push_back(it->second);
        }
        return param;
    };
}

// The issues of an invalid query ("" when it is valid).
std::vector<std::string> issues_of(std::multimap<std::string, std::string> values) {
    try {
        parse_analytics_query(lookup(std::move(values)), 0);
    } catch (const HttpError& error) {
        CHECK(error.status() == 400);
        CHECK(std::string(error.what()) == "Invalid request");
        return error.details();
    }
    return {};
}

int64_t from_of(const std::string& text) {
    return parse_analytics_query(lookup({{"from", text}, {"groupBy", "day"}}), 0).from_ms;
}

}  // namespace

TEST_CASE("analytics query: date-times need an offset; seconds and fractions are optional") {
    CHECK(from_of("2024-01-29T00:00:00Z") == jan_29_2024);
    CHECK(from_of("2024-01-29T00:00Z") == jan_29_2024);
    CHECK(from_of("2024-01-29T00:00:00.250Z") == jan_29_2024 + 250);
    CHECK(from_of("2024-01-29T00:00:00.123456789Z") == jan_29_2024 + 123);
    CHECK(from_of("2024-01-29T05:30:00+05:30") == jan_29_2024);
    CHECK(from_of("2024-01-28T19:00-05:00") == jan_29_2024);
    CHECK(from_of("2024-01-29T00:00:00-00:00") == jan_29_2024);
    CHECK(from_of("2024-02-29T00:00:00Z") == feb_29_2024);

    for (const char* bad :
         {"2024-01-29", "2024-01-29T00:00:00", "2026-02-30T00:00:00Z", "2023-02-29T00:00:00Z",
          "2024-01-29T24:00:00Z", "2024-01-29T23:60Z", "2024-01-29T00:00:60Z",
          "2024-01-29T00:00:00.Z", "2024-13-01T00:00Z", "2024-01-29 00:00:00Z",
          "2024-01-29T00:00:00+0530", "yesterday", "2024-01-29T00:00.5Z", ""}) {
        CAPTURE(bad);
        CHECK(issues_of({{"from", bad}, {"groupBy", "day"}}) ==
              std::vector<std::string>{"from is Invalid ISO datetime"});
    }
    CHECK(issues_of(
              {{"from", "2024-01-29T00:00Z"}, {"to", "2024-02-30T00:00Z"}, {"groupBy", "day"}}) ==
          std::vector<std::string>{"to is Invalid ISO datetime"});
}

TEST_CASE("analytics query: required from, groupBy options, single values, project names") {
    CHECK(issues_of({{"groupBy", "day"}}) ==
          std::vector<std::string>{"from is Invalid input: expected string, received undefined"});
    const std::string group_by_issue =
        R"(groupBy is Invalid option: expected one of "day"|"week"|"month")";
    CHECK(issues_of({{"from", "2024-01-29T00:00Z"}, {"groupBy", "year"}}) ==
          std::vector<std::string>{group_by_issue});
    CHECK(issues_of({{"from", "2024-01-29T00:00Z"}, {"groupBy", "Day"}}) ==
          std::vector<std::string>{group_by_issue});
    CHECK(issues_of({{"from", "2024-01-29T00:00Z"}}) == std::vector<std::string>{group_by_issue});
    CHECK(issues_of({{"from", "bad"}}) ==
          std::vector<std::string>{"from is Invalid ISO datetime", group_by_issue});
    CHECK(
        issues_of(
            {{"from", "2024-01-29T00:00Z"}, {"from", "2024-01-30T00:00Z"}, {"groupBy", "week"}}) ==
        std::vector<std::string>{"from is Invalid input: expected string, received array"});
    CHECK(
        issues_of({{"from", "2024-01-29T00:00Z"}, {"groupBy", "week"}, {"projectNames", "a b"}}) ==
        std::vector<std::string>{"projectNames is Project name can only contain letters, "
                                 "numbers, dots, hyphens and underscores."});
    CHECK(issues_of({{"from", "2024-01-29T00:00Z"}, {"groupBy", "week"}, {"projectNames", ""}}) ==
          std::vector<std::string>{
              "projectNames is Too small: expected string to have >=1 characters"});

    auto parsed = parse_analytics_query(
        lookup({{"from", "2024-01-29T00:00Z"}, {"groupBy", "month"}, {"projectNames", "web.v2"}}),
        mar_01_2024);
    CHECK(parsed.group_by == ActivityBucket::month);
    CHECK(parsed.to_ms == mar_01_2024);  // `to` defaults to now
    REQUIRE(parsed.project_names);
    CHECK(*parsed.project_names == std::vector<std::string>{"web.v2"});
    CHECK_FALSE(
        parse_analytics_query(lookup({{"from", "2024-01-29T00:00Z"}, {"groupBy", "week"}}), 0)
            .project_names);
}

TEST_CASE("analytics range: from after to, and at most 365 whole days") {
    AnalyticsQuery query;
    query.from_ms = jan_29_2024;
    query.to_ms = jan_29_2024;
    CHECK_NOTHROW(check_analytics_range(query));
    query.to_ms = jan_29_2024 - 1;
    try {
        check_analytics_range(query);
        FAIL("from after to was accepted");
    } catch (const HttpError& error) {
        CHECK(error.status() == 400);
        CHECK(std::string(error.what()) == "`from` must be before `to`.");
        CHECK(error.details().empty());
    }
    query.to_ms = jan_29_2024 + 366 * day - 1;  // 365 whole days and almost one more
    CHECK_NOTHROW(check_analytics_range(query));
    query.to_ms = jan_29_2024 + 366 * day;
    try {
        check_analytics_range(query);
        FAIL("366 days were accepted");
    } catch (const HttpError& error) {
        CHECK(error.status() == 400);
        CHECK(std::string(error.what()) == "Date range cannot exceed 365 days.");
    }
}

TEST_CASE("analytics buckets: UTC days, ISO weeks from Monday, calendar months") {
    const int64_t sunday_last_second = jan_29_2024 - 1000;
    CHECK(bucket_start(sunday_last_second, ActivityBucket::week) == jan_22_2024);
    CHECK(bucket_start(jan_29_2024, ActivityBucket::week) == jan_29_2024);
    CHECK(bucket_start(jan_28_2024, ActivityBucket::week) == jan_22_2024);
    CHECK(bucket_start(sunday_last_second, ActivityBucket::day) == jan_28_2024);
    CHECK(bucket_start(feb_29_2024 + 10 * 3'600'000, ActivityBucket::day) == feb_29_2024);
    CHECK(bucket_start(feb_29_2024 + 10 * 3'600'000, ActivityBucket::month) == feb_01_2024);
    CHECK(bucket_start(mar_01_2024, ActivityBucket::month) == mar_01_2024);
    CHECK(bucket_start(mar_01_2024 - 1, ActivityBucket::month) == feb_01_2024);
    // 2020-12-01 lies in the week starting Monday 2020-11-30.
    CHECK(bucket_start(1606780800000, ActivityBucket::week) == 1606694400000);
    // Before 1970 too (1969-12-31 was a Wednesday: its week started on 1969-12-29).
    CHECK(bucket_start(-1, ActivityBucket::day) == -day);
    CHECK(bucket_start(-1, ActivityBucket::week) == -3 * day);
    CHECK(bucket_start(-1, ActivityBucket::month) == -31 * day);

    CHECK(next_bucket_start(feb_01_2024, ActivityBucket::month) == mar_01_2024);
    CHECK(next_bucket_start(1701388800000, ActivityBucket::month) == 1704067200000);  // Dec → Jan
    CHECK(next_bucket_start(jan_22_2024, ActivityBucket::week) == jan_29_2024);

    CHECK(bucket_starts(jan_28_2024 + 5, jan_29_2024, ActivityBucket::day) ==
          std::vector<int64_t>{jan_28_2024, jan_29_2024});
    CHECK(bucket_starts(jan_28_2024 + 5, jan_29_2024 - 1, ActivityBucket::day) ==
          std::vector<int64_t>{jan_28_2024});
    CHECK(bucket_starts(jan_28_2024, jan_29_2024 + 7 * day, ActivityBucket::week) ==
          std::vector<int64_t>{jan_22_2024, jan_29_2024, jan_29_2024 + 7 * day});
    CHECK(bucket_starts(jan_22_2024, mar_01_2024, ActivityBucket::month) ==
          std::vector<int64_t>{1704067200000, feb_01_2024, mar_01_2024});
    CHECK(bucket_starts(jan_29_2024, jan_28_2024, ActivityBucket::day).empty());
}

TEST_CASE("analytics series: every bucket, every counted project, sums and counters") {
    const std::vector<int64_t> starts{jan_22_2024, jan_29_2024, jan_29_2024 + 7 * day};
    const std::vector<BuildActivityRow> rows{
        {jan_22_2024, 12, 1, 3, 0, 1, 0, 0},
        {jan_29_2024, 12, 1, 5, 1, 0, 1, 0},
        {jan_29_2024, 15, 2, 0, 1, 0, 0, 1},  // builds without screenshots
    };
    const auto analytics = assemble_analytics(starts, rows);

    const auto& builds = analytics.builds;
    REQUIRE(builds.points.size() == 3);
    CHECK(builds.project_ids == std::vector<int64_t>{12, 15});
    CHECK(builds.points[0].projects == std::map<int64_t, int64_t>{{12, 1}, {15, 0}});
    CHECK(builds.points[1].total == 3);
    CHECK(builds.points[1].counters.changes_detected == 2);
    CHECK(builds.points[1].counters.accepted == 1);
    CHECK(builds.points[1].counters.rejected == 1);
    CHECK(builds.points[2].total == 0);
    CHECK(builds.points[2].projects == std::map<int64_t, int64_t>{{12, 0}, {15, 0}});
    CHECK(builds.all.total == 4);
    CHECK(builds.all.projects == std::map<int64_t, int64_t>{{12, 2}, {15, 2}});
    CHECK(builds.all.counters.no_changes == 1);

    // Project 15 has builds but no screenshot: it is not a project of the screenshots series.
    const auto& screenshots = analytics.screenshots;
    CHECK(screenshots.project_ids == std::vector<int64_t>{12});
    CHECK(screenshots.points[1].projects == std::map<int64_t, int64_t>{{12, 5}});
    CHECK(screenshots.all.total == 8);

    const Json json = analytics_json(analytics, {{12, "web"}, {15, "docs"}});
    CHECK(json["builds"]["series"][1] == Json{{"ts", jan_29_2024},
                                              {"total", 3},
                                              {"projects", {{"12", 1}, {"15", 2}}},
                                              {"changesDetected", 2},
                                              {"noChanges", 0},
                                              {"accepted", 1},
                                              {"rejected", 1}});
    CHECK(json["builds"]["projects"] ==
          Json::parse(R"([{"id":"12","name":"web"},{"id":"15","name":"docs"}])"));
    CHECK(json["screenshots"]["all"] == Json{{"total", 8}, {"projects", {{"12", 8}}}});
    CHECK(json["screenshots"]["series"][2] ==
          Json{{"ts", jan_29_2024 + 7 * day}, {"total", 0}, {"projects", {{"12", 0}}}});

    const Json empty = analytics_json(assemble_analytics(starts, {}), {});
    CHECK(empty["builds"]["projects"] == Json::array());
    CHECK(empty["builds"]["all"]["projects"] == Json::object());
    CHECK(empty["builds"]["series"].size() == 3);
    CHECK(empty["builds"]["series"][0]["projects"] == Json::object());
}

}  // namespace loupe::analytics
