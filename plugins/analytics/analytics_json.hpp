#pragma once
// The Analytics resource: {"screenshots": {series, all, projects}, "builds": {series, all,
// projects}}, project ids as strings, `ts` in epoch milliseconds.

#include <cstdint>
#include <map>
#include <string>

#include "loupe/json.hpp"
#include "series.hpp"

namespace loupe::analytics {

/// `project_names` maps every project id of the series to its name.
Json analytics_json(const AccountAnalytics& analytics,
                    const std::map<int64_t, std::string>& project_names);

}  // namespace loupe::analytics
