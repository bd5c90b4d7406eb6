// Flakiness metrics (stability, consistency, flakiness): the formulas with JavaScript's rounding,
// the JSON shape, and the period starts in the server's local time.
#include "metrics/test_metrics.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <ctime>
#include <filesystem>

#include "support/scoped_time_zone.hpp"

namespace loupe::builds {
namespace {

using test::ScopedTimeZone;

constexpr int64_t kHourMs = 60 * 60 * 1000;
constexpr int64_t kDayMs = 24 * kHourMs;

bool is_local_midnight(int64_t ms) {
    const auto seconds = static_cast<std::time_t>(ms / 1000);
    std::tm local{};
    localtime_r(&seconds, &local);
    return ms % 1000 == 0 && local.tm_hour == 0 && local.tm_min == 0 && local.tm_sec == 0;
}

TEST_CASE("test metrics: Argos's e2e example") {
    const TestMetrics metrics = compute_test_metrics(2, 1, 1);
    CHECK(metrics.total == 2);
    CHECK(metrics.changes == 1);
    CHECK(metrics.unique_changes == 1);
    CHECK(metrics.stability == 0.5);
    CHECK(metrics.consistency == 1);
    CHECK(metrics.flakiness == 0.25);
}

TEST_CASE("test metrics: no change is stable, consistent and not flaky") {
    for (const int64_t total : {0, 1, 17}) {
        const TestMetrics metrics = compute_test_metrics(total, 0, 0);
        CHECK(metrics.stability == 1);
        CHECK(metrics.consistency == 1);
        CHECK(metrics.flakiness == 0);
    }
}

TEST_CASE("test metrics: changes without a unique one have consistency 0") {
    const TestMetrics metrics = compute_test_metrics(4, 2, 0);
    CHECK(metrics.stability == 0.5);
    CHECK(metrics.consistency == 0);
    CHECK(metrics.flakiness == 0.75);
}

TEST_CASE("test metrics: rounded to two decimals, halves up") {
    // 1 - 1/8 = 0.875 -> 0.88; then 1 - (0.88 + 1) / 2 = 0.06000000000000005 -> 0.06.
    const TestMetrics eighth = compute_test_metrics(8, 1, 1);
    CHECK(eighth.stability == 0.88);
    CHECK(eighth.flakiness == 0.06);
    const TestMetrics thirds = compute_test_metrics(3, 3, 1);
    CHECK(thirds.stability == 0);
    CHECK(thirds.consistency == 0.33);
    CHECK(thirds.flakiness == 0.84);  // 1 - 0.33 / 2 = 0.835 -> 83.5 -> 84
    CHECK(compute_test_metrics(3, 3, 2).consistency == 0.67);
}

TEST_CASE("round2: JavaScript's Math.round(x * 100) / 100 on the same doubles") {
    CHECK(round2(0.875) == 0.88);
    CHECK(round2(0.125) == 0.13);
    CHECK(round2(-0.125) == -0.12);  // halves towards +infinity
    CHECK(round2(0.005) == 0.01);
    CHECK(round2(-0.015) == -0.01);
    CHECK(round2(0.575) == 0.57);  // 57.49999999999999 in doubles, as in JS
    CHECK(round2(0.285) == 0.28);
    CHECK(round2(1.005) == 1);
    CHECK(round2(2.0 / 3) == 0.67);
    const double negative_zero = round2(-0.005);  // Math.round(-0.5) is -0
    CHECK(negative_zero == 0);
    CHECK(std::signbit(negative_zero));
    CHECK_FALSE(std::signbit(round2(0.001)));
}

TEST_CASE("test metrics: JSON") {
    const Json json = test_metrics_json(compute_test_metrics(2, 1, 1));
    CHECK(json == Json::parse(R"({"total": 2, "changes": 1, "uniqueChanges": 1,
                                  "stability": 0.5, "consistency": 1, "flakiness": 0.25})"));
    CHECK(json.at("total").is_number_integer());

    TestMetrics negative_zero;
    negative_zero.flakiness = -0.0;
    // JSON.stringify writes -0 as 0.
    CHECK(test_metrics_json(negative_zero).at("flakiness").dump() == "0.0");
}

TEST_CASE("metrics period: the GraphQL names") {
    CHECK(parse_metrics_period("LAST_24_HOURS") == MetricsPeriod::last_24_hours);
    CHECK(parse_metrics_period("LAST_3_DAYS") == MetricsPeriod::last_3_days);
    CHECK(parse_metrics_period("LAST_7_DAYS") == MetricsPeriod::last_7_days);
    CHECK(parse_metrics_period("LAST_30_DAYS") == MetricsPeriod::last_30_days);
    CHECK(parse_metrics_period("LAST_90_DAYS") == MetricsPeriod::last_90_days);
    CHECK_FALSE(parse_metrics_period("last_7_days"));
    CHECK_FALSE(parse_metrics_period("LAST_7_DAY"));
    CHECK_FALSE(parse_metrics_period(""));
}

TEST_CASE("metrics period: starts, in the server's own time zone") {
    const int64_t now = 1787239800123;  // 2026-08-20T15:30:00.123Z
    CHECK(period_start_ms(MetricsPeriod::last_24_hours, now) == now - kDayMs);
    const int64_t week = period_start_ms(MetricsPeriod::last_7_days, now);
    CHECK(is_local_midnight(week));
    // Calendar days: a daylight-saving change in the week moves it by up to an hour.
    CHECK(week <= now - 7 * kDayMs + kHourMs);
    CHECK(week > now - 8 * kDayMs - kHourMs);
    CHECK(local_day_start_ms(week) == week);
}

TEST_CASE("metrics period: starts in UTC") {
    const ScopedTimeZone utc("UTC");
    const int64_t now = 1787239800123;  // 2026-08-20T15:30:00.123Z
    CHECK(period_start_ms(MetricsPeriod::last_24_hours, now) == 1787153400123);
    CHECK(period_start_ms(MetricsPeriod::last_3_days, now) == 1786924800000);   // 08-17
    CHECK(period_start_ms(MetricsPeriod::last_7_days, now) == 1786579200000);   // 08-13
    CHECK(period_start_ms(MetricsPeriod::last_30_days, now) == 1784592000000);  // 07-21
    CHECK(period_start_ms(MetricsPeriod::last_90_days, now) == 1779408000000);  // 05-22
    CHECK(local_day_start_ms(now) == 1787184000000);
    CHECK(local_day_start_ms(1787184000000) == 1787184000000);
    CHECK(local_day_start_ms(-500) == -kDayMs);  // 1969-12-31T23:59:59.500Z
}

TEST_CASE("metrics period: calendar days across a daylight-saving change") {
    if (!std::filesystem::exists("/usr/share/zoneinfo/Europe/Paris")) {
        MESSAGE("no time zone database: skipped");
        return;
    }
    const ScopedTimeZone paris("Europe/Paris");
    // 2026-03-31 00:30 CEST (summer time since 03-29). Seven calendar days back is 03-24 00:30
    // CET, whose day starts at 03-23T23:00Z, 30 minutes after now - 7 * 24 h (date-fns'
    // addDays then startOfDay; Node gives the same).
    const int64_t now = 1774909800000;  // 2026-03-30T22:30:00Z
    CHECK(period_start_ms(MetricsPeriod::last_7_days, now) == 1774306800000);
    CHECK(local_day_start_ms(now) == 1774908000000);            // 2026-03-30T22:00:00Z
    CHECK(local_day_start_ms(1774864800000) == 1774821600000);  // 03-30 12:00 CEST -> 00:00
}

}  // namespace
}  // namespace loupe::builds
