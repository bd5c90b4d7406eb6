#include "loupe/json.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>

#include "loupe/http/http_error.hpp"

namespace loupe {
namespace {

constexpr int64_t ms_per_day = 86'400'000;

// Howard Hinnant's days_from_civil / civil_from_days: proleptic Gregorian, any year.
int64_t days_from_civil(int64_t year, unsigned month, unsigned day) {
    year -= month <= 2 ? 1 : 0;
    const int64_t era = (year >= 0 ? year : year - 399) / 400;
    const auto year_of_era = static_cast<unsigned>(year - era * 400);
    const unsigned day_of_year = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1;
    const unsigned day_of_era =
        year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    return era * 146097 + static_cast<int64_t>(day_of_era) - 719468;
}

struct CivilDate {
    int64_t year;
    unsigned month;
    unsigned day;
};

CivilDate civil_from_days(int64_t days) {
    days += 719468;
    const int64_t era = (days >= 0 ? days : days - 146096) / 146097;
    const auto day_of_era = static_cast<unsigned>(days - era * 146097);
    const unsigned year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36524 - day_of_era / 146096) / 365;
    const unsigned day_of_year =
        day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    const unsigned mp = (5 * day_of_year + 2) / 153;
    const unsigned day = day_of_year - (153 * mp + 2) / 5 + 1;
    const unsigned month = mp < 10 ? mp + 3 : mp - 9;
    const int64_t year = static_cast<int64_t>(year_of_era) + era * 400 + (month <= 2 ? 1 : 0);
    return {year, month, day};
}

bool is_leap_year(int64_t year) {
    return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
}

unsigned days_in_month(int64_t year, unsigned month) {
    static constexpr unsigned lengths[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    return month == 2 && is_leap_year(year) ? 29 : lengths[month - 1];
}

/// Reads exactly `count` digits at `position`; advances it.
std::optional<unsigned> read_digits(std::string_view text, std::size_t& position,
                                    std::size_t count) {
    if (position + count > text.size()) {
        return std::nullopt;
    }
    unsigned value = 0;
    for (std::size_t i = 0; i < count; ++i) {
        const char c = text[position + i];
        if (c < '0' || c > '9') {
            return std::nullopt;
        }
        value = value * 10 + static_cast<unsigned>(c - '0');
    }
    position += count;
    return value;
}

bool consume(std::string_view text, std::size_t& position, char expected) {
    if (position < text.size() && text[position] == expected) {
        ++position;
        return true;
    }
    return false;
}

}  // namespace

void Validation::add(std::string_view path, std::string_view message) {
    std::string issue;
    issue.reserve(path.size() + 4 + message.size());
    issue.append(path).append(" is ").append(message);
    issues_.push_back(std::move(issue));
}

void Validation::throw_if_any() const {
    if (!issues_.empty()) {
        throw HttpError::invalid(issues_);
    }
}

std::string json_type_name(const Json* value) {
    if (value == nullptr) {
        return "undefined";
    }
    switch (value->type()) {
        case Json::value_t::null:
            return "null";
        case Json::value_t::string:
            return "string";
        case Json::value_t::boolean:
            return "boolean";
        case Json::value_t::number_float:
            return std::isnan(value->get<double>()) ? "NaN" : "number";
        case Json::value_t::number_integer:
        case Json::value_t::number_unsigned:
            return "number";
        case Json::value_t::object:
            return "object";
        case Json::value_t::array:
            return "array";
        case Json::value_t::binary:
        case Json::value_t::discarded:
            break;
    }
    return "unknown";
}

std::string expected_message(std::string_view expected, const Json* actual) {
    std::string message = "Invalid input: expected ";
    message.append(expected).append(", received ").append(json_type_name(actual));
    return message;
}

int64_t now_ms() {
    using namespace std::chrono;
    return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

std::string iso_time(int64_t epoch_ms) {
    // Floor division so instants before 1970 keep a positive time of day.
    int64_t days = epoch_ms / ms_per_day;
    int64_t ms_of_day = epoch_ms % ms_per_day;
    if (ms_of_day < 0) {
        ms_of_day += ms_per_day;
        --days;
    }
    const CivilDate date = civil_from_days(days);
    const auto hours = static_cast<int>(ms_of_day / 3'600'000);
    const auto minutes = static_cast<int>(ms_of_day / 60'000 % 60);
    const auto seconds = static_cast<int>(ms_of_day / 1000 % 60);
    const auto millis = static_cast<int>(ms_of_day % 1000);
    char buffer[48];
    std::snprintf(buffer, sizeof buffer, "%04lld-%02u-%02uT%02d:%02d:%02d.%03dZ",
                  static_cast<long long>(date.year), date.month, date.day, hours, minutes, seconds,
                  millis);
    return buffer;
}

// The grammar of zod's `z.iso.datetime({offset: true})`:
// YYYY-MM-DDTHH:MM[:SS[.fraction]](Z|±HH:MM), with real calendar days.
std::optional<int64_t> parse_iso_time(std::string_view text) {
    std::size_t at = 0;
    const auto year = read_digits(text, at, 4);
    if (!year || !consume(text, at, '-')) {
        return std::nullopt;
    }
    const auto month = read_digits(text, at, 2);
    if (!month || *month < 1 || *month > 12 || !consume(text, at, '-')) {
        return std::nullopt;
    }
    const auto day = read_digits(text, at, 2);
    if (!day || *day < 1 || *day > days_in_month(*year, *month) || !consume(text, at, 'T')) {
        return std::nullopt;
    }
    const auto hour = read_digits(text, at, 2);
    if (!hour || *hour > 23 || !consume(text, at, ':')) {
        return std::nullopt;
    }
    const auto minute = read_digits(text, at, 2);
    if (!minute || *minute > 59) {
        return std::nullopt;
    }
    unsigned second = 0;
    unsigned millis = 0;
    if (consume(text, at, ':')) {
        const auto parsed_second = read_digits(text, at, 2);
        if (!parsed_second || *parsed_second > 59) {
            return std::nullopt;
        }
        second = *parsed_second;
        if (consume(text, at, '.')) {
            const std::size_t fraction_start = at;
            unsigned scale = 100;
            while (at < text.size() && text[at] >= '0' && text[at] <= '9') {
                millis += static_cast<unsigned>(text[at] - '0') * scale;  // beyond ms: dropped
                scale /= 10;
                ++at;
            }
            if (at == fraction_start) {
                return std::nullopt;
            }
        }
    }
    int64_t offset_minutes = 0;
    if (!consume(text, at, 'Z')) {
        if (at >= text.size() || (text[at] != '+' && text[at] != '-')) {
            return std::nullopt;
        }
        const int sign = text[at] == '-' ? -1 : 1;
        ++at;
        const auto offset_hour = read_digits(text, at, 2);
        if (!offset_hour || *offset_hour > 23 || !consume(text, at, ':')) {
            return std::nullopt;
        }
        const auto offset_minute = read_digits(text, at, 2);
        if (!offset_minute || *offset_minute > 59) {
            return std::nullopt;
        }
        offset_minutes = sign * static_cast<int64_t>(*offset_hour * 60 + *offset_minute);
    }
    if (at != text.size()) {
        return std::nullopt;
    }
    const int64_t days = days_from_civil(*year, *month, *day);
    const int64_t local_ms = days * ms_per_day +
                             (static_cast<int64_t>(*hour) * 3600 + *minute * 60 + second) * 1000 +
                             millis;
    return local_ms - offset_minutes * 60'000;
}

}  // namespace loupe
