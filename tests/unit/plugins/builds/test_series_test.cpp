// A test's metrics over time (metrics/test_series): the bucket size each period gets, the
// buckets from the period's start to its end with empty ones at zero, and the counts.
#include "metrics/test_series.hpp"

#include <doctest/doctest.h>

using namespace loupe::builds;

namespace {

constexpr int64_t kSeriesMinute = int64_t{60} * 1000;
constexpr int64_t kSeriesHour = 60 * kSeriesMinute;
constexpr int64_t kSeriesDay = 24 * kSeriesHour;
// 2026-03-10T10:07:00Z, a time that is no bucket's start.
constexpr int64_t kSeriesNow = 1773137220000;

}  // namespace

TEST_CASE("test series: the bucket size follows the length of the period") {
    CHECK(series_tick_ms(kSeriesNow - kSeriesDay, kSeriesNow) == 20 * kSeriesMinute);
    CHECK(series_tick_ms(kSeriesNow - kSeriesDay - 1, kSeriesNow) == kSeriesHour);
    CHECK(series_tick_ms(kSeriesNow - 3 * kSeriesDay - 5 * kSeriesHour, kSeriesNow) ==
          2 * kSeriesHour);  // LAST_3_DAYS
    CHECK(series_tick_ms(kSeriesNow - 7 * kSeriesDay - 5 * kSeriesHour, kSeriesNow) ==
          4 * kSeriesHour);  // LAST_7_DAYS
    CHECK(series_tick_ms(kSeriesNow - 30 * kSeriesDay - 5 * kSeriesHour, kSeriesNow) ==
          12 * kSeriesHour);
    CHECK(series_tick_ms(kSeriesNow - 90 * kSeriesDay - 5 * kSeriesHour, kSeriesNow) == kSeriesDay);
    CHECK(series_tick_ms(kSeriesNow - 92 * kSeriesDay, kSeriesNow) == 365 * kSeriesDay);
}

TEST_CASE("test series: every bucket from the start's to the end's, the diffs in theirs") {
    const int64_t from = kSeriesNow - kSeriesDay;  // 20-minute buckets
    const std::vector<SeriesDiff> diffs = {
        {from, true, true},  // the first bucket (starts 7 minutes before `from`)
        {from + 30 * kSeriesMinute, false, false},
        {from + 32 * kSeriesMinute, true, false},
        {kSeriesNow - 1, true, false},  // the last bucket
        {kSeriesNow, true, true},       // outside [from, now): ignored
        {from - 1, true, true},
    };
    const auto points = test_series(diffs, from, kSeriesNow);
    REQUIRE(points.size() == 73);
    CHECK(points.front().start_ms == from - 7 * kSeriesMinute);
    CHECK(points.back().start_ms == kSeriesNow - 7 * kSeriesMinute);
    for (std::size_t i = 1; i < points.size(); ++i) {
        CHECK(points[i].start_ms - points[i - 1].start_ms == 20 * kSeriesMinute);
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
    const auto rendered = test_series_json(points);
    CHECK(rendered[0] == loupe::Json{{"date", "2026-03-09T10:00:00.000Z"},
                                     {"total", 1},
                                     {"changes", 1},
                                     {"uniqueChanges", 1}});
}
