#pragma once
// Account analytics assembled from the per-(bucket, project) counts the database returns:
// one point per bucket (empty buckets with zeros), each listing every project counted anywhere
// in the range, and the element-wise sums. Pure functions.

#include <cstdint>
#include <map>
#include <vector>

#include "loupe/builds/build_analytics.hpp"

namespace loupe::analytics {

/// The review and conclusion counters of builds (zero for screenshots).
struct BuildCounters {
    int64_t changes_detected = 0;
    int64_t no_changes = 0;
    int64_t accepted = 0;
    int64_t rejected = 0;
};

struct SeriesPoint {
    int64_t ts = 0;  ///< the bucket start, epoch milliseconds
    int64_t total = 0;
    std::map<int64_t, int64_t> projects;  ///< project id → count
    BuildCounters counters;
};

struct Series {
    std::vector<SeriesPoint> points;
    SeriesPoint all;                   ///< sums of the points (ts unused)
    std::vector<int64_t> project_ids;  ///< projects with a non-zero total, ascending
};

struct AccountAnalytics {
    Series screenshots;
    Series builds;
};

/// The series over `bucket_starts` (ascending) of `rows` (rows outside every bucket are
/// ignored).
AccountAnalytics assemble_analytics(const std::vector<int64_t>& bucket_starts,
                                    const std::vector<builds::BuildActivityRow>& rows);

}  // namespace loupe::analytics
