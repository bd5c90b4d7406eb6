#pragma once
// The query of GET /accounts/{accountSlug}/analytics: `from` (required) and `to` (default now)
// ISO date-times with an offset, `groupBy` day | week | month, and an optional `projectNames`
// filter. Parsing reports every issue at once, worded as Argos's validation does.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "loupe/builds/build_analytics.hpp"

namespace loupe::analytics {

/// A query parameter as sent: its first value, how many times it appears, and every value.
struct QueryParam {
    std::optional<std::string> value;
    std::size_t count = 0;
    std::vector<std::string> values;
};
using QueryLookup = std::function<QueryParam(std::string_view name)>;

struct AnalyticsQuery {
    int64_t from_ms = 0;
    int64_t to_ms = 0;
    builds::ActivityBucket group_by = builds::ActivityBucket::day;
    /// Set when the caller restricts the projects (by name, within the account).
    std::optional<std::vector<std::string>> project_names;
};

/// Validates the query (400 "Invalid request" with one detail per issue). `now_ms` is `to`'s
/// default.
AnalyticsQuery parse_analytics_query(const QueryLookup& query, int64_t now_ms);

/// The range rules checked once the caller is known: `from` after `to` → 400 "`from` must be
/// before `to`."; more than 365 whole days between them → 400 "Date range cannot exceed 365
/// days.".
void check_analytics_range(const AnalyticsQuery& query);

}  // namespace loupe::analytics
