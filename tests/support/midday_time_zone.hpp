#pragma once
// A time zone for a server whose local days must not turn while a test runs. The builds plugin
// counts a test's changes per day of the server's local time zone and sums whole days for a
// period (as Argos does), so a figure asked for a moment after its builds were processed differs
// when a local midnight (or a daylight-saving change) falls in between: a test that starts the
// server in this zone finds the same figures on any date and at any hour it runs.

#include <cstdint>
#include <string>

namespace loupe::test {

/// A POSIX TZ value with a fixed offset from UTC (so no daylight saving) in which `now_ms` is
/// between 12:00 and 13:00, eleven hours or more from either local midnight.
std::string midday_time_zone(int64_t now_ms);

}  // namespace loupe::test
