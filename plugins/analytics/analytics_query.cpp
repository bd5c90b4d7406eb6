#include "analytics_query.hpp"

#include "buckets.hpp"
#include "loupe/auth/identity.hpp"
#include "loupe/http/http_error.hpp"
#include "loupe/json.hpp"

namespace loupe::analytics {
namespace {

constexpr int64_t max_range_days = 365;

std::optional<std::string> single_value(const QueryParam& param, const char* name,
                                        Validation& validation) {
    if (param.count > 1) {
        validation.add(name, "Invalid input: expected string, received array");
        return std::nullopt;
    }
    return param.value;
}

std::optional<int64_t> parse_time(const QueryParam& param, const char* name,
                                  Validation& validation) {
    auto text = single_value(param, name, validation);
    if (!text) {
        return std::nullopt;
    }
    auto ms = parse_iso_time(*text);
    if (!ms) {
        validation.add(name, "Invalid ISO datetime");
    }
    return ms;
}

std::optional<builds::ActivityBucket> parse_group_by(const QueryParam& param) {
    if (param.count != 1 || !param.value) {
        return std::nullopt;
    }
    if (*param.value == "day") {
        return builds::ActivityBucket::day;
    }
    if (*param.value == "week") {
        return builds::ActivityBucket::week;
    }
    if (*param.value == "month") {
        return builds::ActivityBucket::month;
    }
    return std::nullopt;
}

}  // namespace

AnalyticsQuery parse_analytics_query(const QueryLookup& query, int64_t now_ms) {
    Validation validation;
    AnalyticsQuery parsed;

    const auto from = query("from");
    if (from.count == 0) {
        validation.add("from", "Invalid input: expected string, received undefined");
    } else if (auto ms = parse_time(from, "from", validation)) {
        parsed.from_ms = *ms;
    }

    parsed.to_ms = now_ms;
    if (const auto to = query("to"); to.count > 0) {
        if (auto ms = parse_time(to, "to", validation)) {
            parsed.to_ms = *ms;
        }
    }

    if (auto group_by = parse_group_by(query("groupBy"))) {
        parsed.group_by = *group_by;
    } else {
        validation.add("groupBy", R"(Invalid option: expected one of "day"|"week"|"month")");
    }

    // One name, or the parameter repeated for several.
    if (const auto names = query("projectNames"); names.count > 0) {
        std::vector<std::string> accepted;
        for (std::size_t i = 0; i < names.values.size(); ++i) {
            const auto& name = names.values[i];
            if (auto problem = project_name_problem(name)) {
                validation.add(names.values.size() == 1 ? std::string("projectNames")
                                                        : "projectNames." + std::to_string(i),
                               *problem);
            }
            accepted.push_back(name);
        }
        parsed.project_names = std::move(accepted);
    }

    validation.throw_if_any();
    return parsed;
}

void check_analytics_range(const AnalyticsQuery& query) {
    if (query.from_ms > query.to_ms) {
        throw HttpError::bad_request("`from` must be before `to`.");
    }
    if ((query.to_ms - query.from_ms) / day_ms > max_range_days) {
        throw HttpError::bad_request("Date range cannot exceed 365 days.");
    }
}

}  // namespace loupe::analytics
