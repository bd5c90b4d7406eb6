#include "service/build_analytics_impl.hpp"

#include <algorithm>

#include "ids/public_ids.hpp"
#include "metrics/test_metrics.hpp"
#include "store/build_activity.hpp"
#include "store/test_stats.hpp"

namespace loupe::builds {

std::vector<BuildActivityRow> BuildAnalyticsImpl::build_activity(
    soci::session& session, const std::vector<int64_t>& project_ids, int64_t from_ms, int64_t to_ms,
    ActivityBucket bucket) {
    return builds::build_activity(session, project_ids, from_ms, to_ms, bucket);
}

std::vector<int64_t> BuildAnalyticsImpl::account_projects_with_builds(soci::session& session,
                                                                      int64_t account_id,
                                                                      int64_t from_ms,
                                                                      int64_t to_ms) {
    return builds::account_projects_with_builds(session, account_id, from_ms, to_ms);
}

std::optional<int64_t> BuildAnalyticsImpl::metrics_period_start(const std::string& period,
                                                                int64_t now_ms) {
    auto parsed = parse_metrics_period(period);
    if (!parsed) {
        return std::nullopt;
    }
    return period_start_ms(*parsed, now_ms);
}

std::vector<FlakyTest> BuildAnalyticsImpl::flaky_tests(soci::session& session, int64_t project_id,
                                                       int64_t from_ms, int64_t now_ms, int limit) {
    const auto ids = project_tests_counted(session, project_id, from_ms, now_ms);
    const auto counts = test_counts_for(session, ids, from_ms, now_ms);
    struct Candidate {
        int64_t test_id;
        TestMetrics metrics;
    };
    std::vector<Candidate> candidates;
    for (const auto& [test_id, count] : counts) {
        auto metrics = compute_test_metrics(count.total, count.changes, count.unique_changes);
        if (metrics.flakiness > 0) {
            candidates.push_back({test_id, metrics});
        }
    }
    std::sort(candidates.begin(), candidates.end(), [](const Candidate& a, const Candidate& b) {
        if (a.metrics.flakiness != b.metrics.flakiness) {
            return a.metrics.flakiness > b.metrics.flakiness;
        }
        if (a.metrics.changes != b.metrics.changes) {
            return a.metrics.changes > b.metrics.changes;
        }
        if (a.metrics.total != b.metrics.total) {
            return a.metrics.total > b.metrics.total;
        }
        return a.test_id < b.test_id;
    });
    if (candidates.size() > static_cast<std::size_t>(std::max(limit, 0))) {
        candidates.resize(static_cast<std::size_t>(std::max(limit, 0)));
    }
    std::vector<int64_t> kept;
    for (const auto& candidate : candidates) {
        kept.push_back(candidate.test_id);
    }
    const auto tests = tests_by_id(session, kept);
    const std::string project_name = project_name_of(session, project_id);
    std::vector<FlakyTest> out;
    for (const auto& candidate : candidates) {
        auto test = tests.find(candidate.test_id);
        if (test == tests.end()) {
            continue;
        }
        out.push_back({candidate.test_id, candidate.metrics.flakiness,
                       test_json(test_public_id(project_name, candidate.test_id), test->second.name,
                                 test->second.build_name, candidate.metrics)});
    }
    return out;
}

}  // namespace loupe::builds
