#include "analytics_json.hpp"

namespace loupe::analytics {
namespace {

Json point_json(const SeriesPoint& point, bool with_counters) {
    Json projects = Json::object();
    for (const auto& [project_id, count] : point.projects) {
        projects[std::to_string(project_id)] = count;
    }
    Json out = {{"total", point.total}, {"projects", std::move(projects)}};
    if (with_counters) {
        out["changesDetected"] = point.counters.changes_detected;
        out["noChanges"] = point.counters.no_changes;
        out["accepted"] = point.counters.accepted;
        out["rejected"] = point.counters.rejected;
    }
    return out;
}

Json series_json(const Series& series, const std::map<int64_t, std::string>& project_names,
                 bool with_counters) {
    Json points = Json::array();
    for (const auto& point : series.points) {
        Json rendered = point_json(point, with_counters);
        rendered["ts"] = point.ts;
        points.push_back(std::move(rendered));
    }
    Json projects = Json::array();
    for (auto project_id : series.project_ids) {
        auto name = project_names.find(project_id);
        projects.push_back({{"id", std::to_string(project_id)},
                            {"name", name == project_names.end() ? Json() : Json(name->second)}});
    }
    return Json{{"series", std::move(points)},
                {"all", point_json(series.all, with_counters)},
                {"projects", std::move(projects)}};
}

}  // namespace

Json analytics_json(const AccountAnalytics& analytics,
                    const std::map<int64_t, std::string>& project_names) {
    return Json{{"screenshots", series_json(analytics.screenshots, project_names, false)},
                {"builds", series_json(analytics.builds, project_names, true)}};
}

}  // namespace loupe::analytics
