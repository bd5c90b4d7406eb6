#pragma once
// Time buckets of account analytics, in UTC: days, ISO weeks (starting on Monday) and calendar
// months. Pure functions on epoch milliseconds.

#include <cstdint>
#include <vector>

#include "loupe/builds/build_analytics.hpp"

namespace loupe::analytics {

/// Milliseconds in a day (UTC days: no leap seconds).
inline constexpr int64_t day_ms = 86'400'000;

using builds::ActivityBucket;

/// The start of the bucket containing `ms`.
int64_t bucket_start(int64_t ms, ActivityBucket bucket);
/// The start of the bucket after the one starting at `start`.
int64_t next_bucket_start(int64_t start, ActivityBucket bucket);
/// Every bucket start from bucket_start(from) up to and including `to` (none when to < from).
std::vector<int64_t> bucket_starts(int64_t from, int64_t to, ActivityBucket bucket);

}  // namespace loupe::analytics
