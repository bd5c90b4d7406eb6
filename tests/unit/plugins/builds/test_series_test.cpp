// A test's metrics over time (metrics/test_series): the bucket size each period gets, the
// buckets from the period's start to its end with empty ones at zero, and the counts.
#include "metrics/test_series.hpp"

#include <doctest/doctest.h>

using namespace loupe::builds;

namespace {

constexpr int64_t kMinute = 60 * 1000;
constexpr int64_t kHour = 60 * kMinute;
constexpr int64_t kDay = 24 * kHour;
// 2026-03-10T10:07:00Z, a time that is no bucket's start.
constexpr int64_t kNow = 1773137220000;

}  // namespace

TEST_CASE("test series: the bucket size follows the length of the period") {
    CHECK(series_tick_ms(kNow - kDay, kNow) == 20 * kMinute);
    CHECK(series_tick_ms(kNow - kDay - 1, kNow) == kHour);
    CHECK(series_tick_ms(kNow - 3 * kDay - 5 * kHour, kNow) == 2 * kHour);  // LAST_3_DAYS
    CHECK(series_tick_ms(kNow - 7 * kDay - 5 * kHour, kNow) == 4 * kHour);  // LAST_7_DAYS
    CHECK(series_tick_ms(kNow - 30 * kDay - 5 * kHour, kNow) == 12 * kHour);
    CHECK(series_tick_ms(kNow - 90 * kDay - 5 * kHour, kNow) == kDay);
    CHECK(series_tick_ms(kNow - 92 * kDay, kNow) == 365 * kDay);
}

TEST_CASE("test series: every bucket from the start's to the end's, the diffs in theirs") {
    const int64_t from = kNow - kDay;  // 20-minute buckets
    const std::vector<SeriesDiff> diffs = {
        {from, true, true},  // the first bucket (starts 7 minutes before `from`)
        {from + 30 * kMinute, false, false},
        {from + 32 * kMinute, true, false},
        {kNow - 1, true, false},  // the last bucket
        {kNow, true, true},       // outside [from, now): ignored
        {from - 1, true, true},
    };
    const auto points = test_series(diffs, from, kNow);
    REQUIRE(points.size() == 73);
    CHECK(points.front().start_ms == from - 7 * kMinute);
    CHECK(points.back().start_ms == kNow - 7 * kMinute);
    for (std::size_t i = 1; i < points.size(); ++i) {
        CHECK(points[i].start_ms - points[i - 1].start_ms == 20 * kMinute);
    }
    CHECK(points[0].total == 1);
    CHECK(points[0].changes == 1);
    CHECK(points[0].unique_changes == 1);
    CHECK(points[1].total == 2);
    CHECK(points[1].changes == 1);
    CHECK(points[1].unique_changes == 0);
    CHECK(points[72].total == 1);
    int64_t total = 0;
    for (const auto& point : points) {
        total += point.total;
    }
    CHECK(total == 4);
    const auto json = test_series_json(points);
    CHECK(json[0] == loupe::Json{{"date", "2026-03-09T10:00:00.000Z"},
                                 {"total", 1},
                                 {"changes", 1},
                                 {"uniqueChanges", 1}});
}
