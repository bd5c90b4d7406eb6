#pragma once
// A test's flakiness metrics (as Argos's apps/backend/src/metrics/test.ts computes them): the rates
// derived from its daily counters, and the periods the counters are summed over. Pure functions;
// days and periods are in the server's local time zone, as Argos's.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "loupe/json.hpp"

namespace loupe::builds {

struct TestMetrics {
    int64_t total = 0;           ///< diff jobs of the test in the period (builds counter)
    int64_t changes = 0;         ///< of which produced a mask (fingerprint counters)
    int64_t unique_changes = 0;  ///< fingerprints counted on exactly one day of the period
    double stability = 1;
    double consistency = 1;
    double flakiness = 0;
};

/// JavaScript's Math.round(x * 100) / 100, on the same doubles: halves go up (towards
/// +infinity, so -0.005 gives -0), and 0.575 gives 0.57 as 57.49999... does in JS.
double round2(double x);

/// stability = 1 if no change, else round2(1 - changes / total); consistency = 1 if no change,
/// 0 if no unique change, else round2(unique_changes / changes); flakiness =
/// round2(1 - (stability + consistency) / 2).
TestMetrics compute_test_metrics(int64_t total, int64_t changes, int64_t unique_changes);

/// {total, changes, uniqueChanges, stability, consistency, flakiness}.
Json test_metrics_json(const TestMetrics& metrics);

/// A test as the diff list renders it: {"id", "name", "buildName", "metrics"}; `public_id` is
/// test_public_id's (ids/public_ids.hpp).
Json test_json(const std::string& public_id, const std::string& name, const std::string& build_name,
               const TestMetrics& metrics);

enum class MetricsPeriod { last_24_hours, last_3_days, last_7_days, last_30_days, last_90_days };

/// "LAST_24_HOURS", "LAST_3_DAYS", "LAST_7_DAYS", "LAST_30_DAYS" or "LAST_90_DAYS".
std::optional<MetricsPeriod> parse_metrics_period(std::string_view text);

/// The period's start (epoch ms) for a period ending at `now_ms`: now - 24 h, or the start of
/// the local day N calendar days before now (date-fns startOfDay(addDays(now, -N)), which is
/// not always now - N * 24 h across a daylight-saving change).
int64_t period_start_ms(MetricsPeriod period, int64_t now_ms);

/// The start (epoch ms) of the local day containing `ms`: the day of a daily counter.
int64_t local_day_start_ms(int64_t ms);

}  // namespace loupe::builds
