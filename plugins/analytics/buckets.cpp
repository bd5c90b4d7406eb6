#include "buckets.hpp"

namespace loupe::analytics {
namespace {

constexpr int64_t week_ms = 7 * day_ms;
// 1970-01-01 was a Thursday: the first Monday came 4 days later.
constexpr int64_t first_monday_ms = 4 * day_ms;

int64_t floor_div(int64_t a, int64_t b) {
    return a / b - ((a % b != 0) && ((a < 0) != (b < 0)) ? 1 : 0);
}

struct YearMonth {
    int64_t year;
    int64_t month;  // 1..12
};

// Proleptic Gregorian calendar conversions (days since 1970-01-01).
YearMonth year_month_of_days(int64_t days) {
    const int64_t z = days + 719468;
    const int64_t era = floor_div(z, 146097);
    const int64_t day_of_era = z - era * 146097;
    const int64_t year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36524 - day_of_era / 146096) / 365;
    const int64_t day_of_year =
        day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    const int64_t shifted_month = (5 * day_of_year + 2) / 153;
    const int64_t month = shifted_month < 10 ? shifted_month + 3 : shifted_month - 9;
    const int64_t year = year_of_era + era * 400 + (month <= 2 ? 1 : 0);
    return {year, month};
}

int64_t days_of_first_of_month(int64_t year, int64_t month) {
    year -= month <= 2 ? 1 : 0;
    const int64_t era = floor_div(year, 400);
    const int64_t year_of_era = year - era * 400;
    const int64_t day_of_year = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5;
    const int64_t day_of_era =
        year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    return era * 146097 + day_of_era - 719468;
}

}  // namespace

int64_t bucket_start(int64_t ms, ActivityBucket bucket) {
    switch (bucket) {
        case ActivityBucket::day:
            return floor_div(ms, day_ms) * day_ms;
        case ActivityBucket::week:
            return floor_div(ms - first_monday_ms, week_ms) * week_ms + first_monday_ms;
        case ActivityBucket::month:
            break;
    }
    const auto [year, month] = year_month_of_days(floor_div(ms, day_ms));
    return days_of_first_of_month(year, month) * day_ms;
}

int64_t next_bucket_start(int64_t start, ActivityBucket bucket) {
    switch (bucket) {
        case ActivityBucket::day:
            return start + day_ms;
        case ActivityBucket::week:
            return start + week_ms;
        case ActivityBucket::month:
            break;
    }
    const auto [year, month] = year_month_of_days(floor_div(start, day_ms));
    return (month == 12 ? days_of_first_of_month(year + 1, 1)
                        : days_of_first_of_month(year, month + 1)) *
           day_ms;
}

std::vector<int64_t> bucket_starts(int64_t from, int64_t to, ActivityBucket bucket) {
    std::vector<int64_t> starts;
    for (int64_t start = bucket_start(from, bucket); start <= to;
         start = next_bucket_start(start, bucket)) {
        starts.push_back(start);
    }
    return starts;
}

}  // namespace loupe::analytics
