#include "metrics/test_metrics.hpp"

#include <cmath>
#include <ctime>
#include <limits>

namespace loupe::builds {
namespace {

constexpr int64_t kDayMs = 24 * 60 * 60 * 1000;

// Math.round: the nearest integer, halves towards +infinity, keeping the sign of zero.
double js_round(double x) {
    if (!std::isfinite(x)) {
        return x;
    }
    const double below = std::floor(x);
    const double rounded = x - below >= 0.5 ? below + 1 : below;
    return rounded == 0 ? std::copysign(0.0, x) : rounded;
}

// JS division: changes / 0 is Infinity (never with consistent counters, mirrored anyway).
double js_divide(int64_t numerator, int64_t denominator) {
    if (denominator == 0) {
        return numerator == 0 ? std::numeric_limits<double>::quiet_NaN()
                              : std::copysign(std::numeric_limits<double>::infinity(),
                                              static_cast<double>(numerator));
    }
    return static_cast<double>(numerator) / static_cast<double>(denominator);
}

// JSON.stringify writes -0 as 0.
double json_number(double x) {
    return x == 0 ? 0.0 : x;
}

std::tm local_time(int64_t ms) {
    const auto seconds = static_cast<std::time_t>(ms / 1000 - (ms % 1000 < 0 ? 1 : 0));
    std::tm local{};
    localtime_r(&seconds, &local);
    return local;
}

// Midnight of the local date in `local` (days may be out of range: mktime normalises them).
int64_t local_midnight_ms(std::tm local) {
    local.tm_hour = 0;
    local.tm_min = 0;
    local.tm_sec = 0;
    local.tm_isdst = -1;
    return static_cast<int64_t>(std::mktime(&local)) * 1000;
}

}  // namespace

double round2(double x) {
    return js_round(x * 100) / 100;
}

TestMetrics compute_test_metrics(int64_t total, int64_t changes, int64_t unique_changes) {
    TestMetrics metrics;
    metrics.total = total;
    metrics.changes = changes;
    metrics.unique_changes = unique_changes;
    if (changes > 0) {
        metrics.stability = round2(1 - js_divide(changes, total));
        metrics.consistency = unique_changes > 0 ? round2(js_divide(unique_changes, changes)) : 0;
    }
    metrics.flakiness = round2(1 - (metrics.stability + metrics.consistency) / 2);
    return metrics;
}

Json test_metrics_json(const TestMetrics& metrics) {
    return Json{{"total", metrics.total},
                {"changes", metrics.changes},
                {"uniqueChanges", metrics.unique_changes},
                {"stability", json_number(metrics.stability)},
                {"consistency", json_number(metrics.consistency)},
                {"flakiness", json_number(metrics.flakiness)}};
}

Json test_json(const std::string& public_id, const std::string& name, const std::string& build_name,
               const TestMetrics& metrics) {
    return Json{{"id", public_id},
                {"name", name},
                {"buildName", build_name},
                {"metrics", test_metrics_json(metrics)}};
}

std::optional<MetricsPeriod> parse_metrics_period(std::string_view text) {
    if (text == "LAST_24_HOURS") {
        return MetricsPeriod::last_24_hours;
    }
    if (text == "LAST_3_DAYS") {
        return MetricsPeriod::last_3_days;
    }
    if (text == "LAST_7_DAYS") {
        return MetricsPeriod::last_7_days;
    }
    if (text == "LAST_30_DAYS") {
        return MetricsPeriod::last_30_days;
    }
    if (text == "LAST_90_DAYS") {
        return MetricsPeriod::last_90_days;
    }
    return std::nullopt;
}

int64_t period_start_ms(MetricsPeriod period, int64_t now_ms) {
    int days = 0;
    switch (period) {
        case MetricsPeriod::last_24_hours:
            return now_ms - kDayMs;
        case MetricsPeriod::last_3_days:
            days = 3;
            break;
        case MetricsPeriod::last_7_days:
            days = 7;
            break;
        case MetricsPeriod::last_30_days:
            days = 30;
            break;
        case MetricsPeriod::last_90_days:
            days = 90;
            break;
    }
    std::tm local = local_time(now_ms);
    local.tm_mday -= days;
    return local_midnight_ms(local);
}

int64_t local_day_start_ms(int64_t ms) {
    return local_midnight_ms(local_time(ms));
}

}  // namespace loupe::builds
