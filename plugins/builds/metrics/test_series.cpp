#include "metrics/test_series.hpp"

namespace loupe::builds {
namespace {

constexpr int64_t kSeriesMinuteMs = int64_t{60} * 1000;
constexpr int64_t kSeriesHourMs = 60 * kSeriesMinuteMs;
constexpr int64_t kSeriesDayMs = 24 * kSeriesHourMs;

// The start of the bucket holding `ms` (floor, also before the epoch).
int64_t bucket_start(int64_t ms, int64_t tick) {
    const int64_t quotient = ms / tick - (ms % tick < 0 ? 1 : 0);
    return quotient * tick;
}

}  // namespace

int64_t series_tick_ms(int64_t from_ms, int64_t to_ms) {
    const int64_t length = to_ms - from_ms;
    if (length <= kSeriesDayMs) {
        return 20 * kSeriesMinuteMs;
    }
    if (length <= 3 * kSeriesDayMs) {
        return kSeriesHourMs;
    }
    if (length <= 7 * kSeriesDayMs) {
        return 2 * kSeriesHourMs;
    }
    if (length <= 14 * kSeriesDayMs) {
        return 4 * kSeriesHourMs;
    }
    if (length <= 31 * kSeriesDayMs) {
        return 12 * kSeriesHourMs;
    }
    if (length <= 91 * kSeriesDayMs) {
        return kSeriesDayMs;
    }
    return 365 * kSeriesDayMs;
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
