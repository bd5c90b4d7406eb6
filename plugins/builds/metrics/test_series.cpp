#include "metrics/test_series.hpp"

namespace loupe::builds {
namespace {

constexpr int64_t kMinuteMs = 60 * 1000;
constexpr int64_t kHourMs = 60 * kMinuteMs;
constexpr int64_t kDayLengthMs = 24 * kHourMs;

// The start of the bucket holding `ms` (floor, also before the epoch).
int64_t bucket_start(int64_t ms, int64_t tick) {
    const int64_t quotient = ms / tick - (ms % tick < 0 ? 1 : 0);
    return quotient * tick;
}

}  // namespace

int64_t series_tick_ms(int64_t from_ms, int64_t to_ms) {
    const int64_t length = to_ms - from_ms;
    if (length <= kDayLengthMs) {
        return 20 * kMinuteMs;
    }
    if (length <= 3 * kDayLengthMs) {
        return kHourMs;
    }
    if (length <= 7 * kDayLengthMs) {
        return 2 * kHourMs;
    }
    if (length <= 14 * kDayLengthMs) {
        return 4 * kHourMs;
    }
    if (length <= 31 * kDayLengthMs) {
        return 12 * kHourMs;
    }
    if (length <= 91 * kDayLengthMs) {
        return kDayLengthMs;
    }
    return 365 * kDayLengthMs;
}

std::vector<SeriesPoint> test_series(const std::vector<SeriesDiff>& diffs, int64_t from_ms,
                                     int64_t to_ms) {
    const int64_t tick = series_tick_ms(from_ms, to_ms);
    const int64_t first = bucket_start(from_ms, tick);
    std::vector<SeriesPoint> points;
    for (int64_t start = first; start <= to_ms; start += tick) {
        points.push_back(SeriesPoint{start});
    }
    for (const auto& diff : diffs) {
        if (diff.created_at < from_ms || diff.created_at >= to_ms) {
            continue;
        }
        auto& point =
            points[static_cast<std::size_t>((bucket_start(diff.created_at, tick) - first) / tick)];
        ++point.total;
        point.changes += diff.changed ? 1 : 0;
        point.unique_changes += diff.unique ? 1 : 0;
    }
    return points;
}

Json test_series_json(const std::vector<SeriesPoint>& points) {
    Json series = Json::array();
    for (const auto& point : points) {
        series.push_back(Json{{"date", iso_time(point.start_ms)},
                              {"total", point.total},
                              {"changes", point.changes},
                              {"uniqueChanges", point.unique_changes}});
    }
    return series;
}

}  // namespace loupe::builds
