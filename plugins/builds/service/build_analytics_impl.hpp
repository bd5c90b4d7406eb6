#pragma once
// The BuildAnalytics service: activity and flakiness counted over this plugin's tables.

#include "loupe/builds/build_analytics.hpp"

namespace loupe::builds {

class BuildAnalyticsImpl final : public BuildAnalytics {
public:
    std::vector<BuildActivityRow> build_activity(soci::session& session,
                                                 const std::vector<int64_t>& project_ids,
                                                 int64_t from_ms, int64_t to_ms,
                                                 ActivityBucket bucket) override;
    std::vector<int64_t> account_projects_with_builds(soci::session& session, int64_t account_id,
                                                      int64_t from_ms, int64_t to_ms) override;
    std::optional<int64_t> metrics_period_start(const std::string& period, int64_t now_ms) override;
    std::vector<FlakyTest> flaky_tests(soci::session& session, int64_t project_id, int64_t from_ms,
                                       int64_t now_ms, int limit) override;
};

}  // namespace loupe::builds
