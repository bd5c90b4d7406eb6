#pragma once
// A test's metrics bucketed over time (Argos's getTestSeriesMetrics): the bucket size follows
// the length of the period, buckets start at multiples of it since the epoch (UTC), and every
// bucket from the one holding the period's start to the one holding its end is present, empty
// ones with zeros. Pure functions.

#include <cstdint>
#include <vector>

#include "loupe/json.hpp"
#include "store/project_tests.hpp"

namespace loupe::builds {

/// 20 minutes up to a day, 1 hour up to 3 days, 2 hours up to 7, 4 hours up to 14, 12 hours up
/// to 31, a day up to 91, else a year of 365 days (in ms).
int64_t series_tick_ms(int64_t from_ms, int64_t to_ms);

struct SeriesPoint {
    int64_t start_ms = 0;
    int64_t total = 0;           ///< diffs of the test in reference builds
    int64_t changes = 0;         ///< of which changed
    int64_t unique_changes = 0;  ///< of which with a mask no other reference build had
};

/// The buckets of [from, to] with `diffs` (created in [from, to)) counted in theirs.
std::vector<SeriesPoint> test_series(const std::vector<SeriesDiff>& diffs, int64_t from_ms,
                                     int64_t to_ms);

/// [{"date", "total", "changes", "uniqueChanges"}, ...], oldest first.
Json test_series_json(const std::vector<SeriesPoint>& points);

}  // namespace loupe::builds
