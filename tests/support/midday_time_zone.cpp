#include "support/midday_time_zone.hpp"

namespace loupe::test {

std::string midday_time_zone(int64_t now_ms) {
    constexpr int64_t hour_ms = 3'600'000;
    const int64_t hours = now_ms / hour_ms - (now_ms % hour_ms < 0 ? 1 : 0);  // floor
    const int64_t utc_hour = (hours % 24 + 24) % 24;
    // Local time is UTC plus `ahead` hours: -11 to +12, the range of real zones.
    const int64_t ahead = 12 - utc_hour;
    // POSIX counts the offset west of Greenwich: "MID-5" is five hours ahead of UTC.
    return "MID" + std::string(ahead > 0 ? "-" : "+") + std::to_string(ahead > 0 ? ahead : -ahead);
}

}  // namespace loupe::test
