#include "series.hpp"

#include <algorithm>

namespace loupe::analytics {
namespace {

void add_counters(BuildCounters& into, const BuildCounters& more) {
    into.changes_detected += more.changes_detected;
    into.no_changes += more.no_changes;
    into.accepted += more.accepted;
    into.rejected += more.rejected;
}

// Keeps the projects with a non-zero total and lists all of them at every point.
void complete_projects(Series& series) {
    for (const auto& [project_id, count] : series.all.projects) {
        if (count != 0) {
            series.project_ids.push_back(project_id);
        }
    }
    std::erase_if(series.all.projects, [](const auto& entry) { return entry.second == 0; });
    for (auto& point : series.points) {
        std::map<int64_t, int64_t> listed;
        for (auto project_id : series.project_ids) {
            auto found = point.projects.find(project_id);
            listed[project_id] = found == point.projects.end() ? 0 : found->second;
        }
        point.projects = std::move(listed);
    }
}

}  // namespace

AccountAnalytics assemble_analytics(const std::vector<int64_t>& bucket_starts,
                                    const std::vector<builds::BuildActivityRow>& rows) {
    AccountAnalytics analytics;
    for (auto start : bucket_starts) {
        analytics.screenshots.points.push_back({start, 0, {}, {}});
        analytics.builds.points.push_back({start, 0, {}, {}});
    }
    for (const auto& row : rows) {
        auto at = std::lower_bound(bucket_starts.begin(), bucket_starts.end(), row.bucket_start_ms);
        if (at == bucket_starts.end() || *at != row.bucket_start_ms) {
            continue;
        }
        const auto index = static_cast<std::size_t>(at - bucket_starts.begin());
        const BuildCounters counters{row.changes_detected, row.no_changes, row.accepted,
                                     row.rejected};
        for (auto* series : {&analytics.screenshots, &analytics.builds}) {
            const int64_t count = series == &analytics.builds ? row.builds : row.screenshots;
            for (auto* point : {&series->points[index], &series->all}) {
                point->total += count;
                point->projects[row.project_id] += count;
                if (series == &analytics.builds) {
                    add_counters(point->counters, counters);
                }
            }
        }
    }
    complete_projects(analytics.screenshots);
    complete_projects(analytics.builds);
    return analytics;
}

}  // namespace loupe::analytics
