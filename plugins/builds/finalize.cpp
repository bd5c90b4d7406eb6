#include "finalize.hpp"

#include <soci/soci.h>

namespace loupe::builds {

void finalize_build(soci::session& session, JobQueue& jobs, Build& build) {
    int64_t count = 0;
    session << "SELECT COUNT(*) FROM screenshots WHERE build_id = :id", soci::use(build.id),
        soci::into(count);
    build.screenshot_count = count;
    build.complete = true;
    build.partial = false;
    const Json* report = build.metadata.is_object() && build.metadata.contains("testReport")
                             ? &build.metadata["testReport"]
                             : nullptr;
    build.valid = report == nullptr || report->value("status", "") == "passed";
    build.finalized_at = now_ms();
    update_build_state(session, build);
    jobs.enqueue(session, process_job_kind, Json{{"buildId", build.id}});
}

Json aggregate_shard_metadata(const std::vector<Json>& shard_metadata) {
    Json report = nullptr;
    for (const auto& metadata : shard_metadata) {
        if (!metadata.is_object() || !metadata.contains("testReport") ||
            !metadata["testReport"].is_object()) {
            continue;
        }
        const Json& shard = metadata["testReport"];
        const std::string status = shard.value("status", "");
        if (report.is_null()) {
            report = {{"status", status}};
            if (shard.contains("stats")) {
                report["stats"] = shard["stats"];
            }
            continue;
        }
        const bool still_passing = report["status"] != "failed" && status == "passed";
        report["status"] = still_passing ? "passed" : "failed";
        if (shard.contains("stats") && shard["stats"].is_object()) {
            Json& stats = report["stats"];
            if (!stats.is_object()) {
                stats = Json::object();
            }
            const Json& incoming = shard["stats"];
            if (incoming.contains("startTime") &&
                (!stats.contains("startTime") ||
                 parse_iso_time(incoming["startTime"].get<std::string>()).value_or(0) <
                     parse_iso_time(stats["startTime"].get<std::string>()).value_or(0))) {
                stats["startTime"] = incoming["startTime"];
            }
            if (incoming.contains("duration")) {
                stats["duration"] =
                    stats.value("duration", 0.0) + incoming["duration"].get<double>();
            }
        }
    }
    if (report.is_null()) {
        return nullptr;
    }
    return Json{{"testReport", report}};
}

Json shard_metadata(soci::session& session, int64_t build_id) {
    std::vector<Json> reports;
    soci::rowset<soci::row> rows =
        (session.prepare << "SELECT metadata FROM build_shards WHERE build_id = :b AND completed "
                            "= 1 ORDER BY created_at, shard_key",
         soci::use(build_id));
    for (const auto& row : rows) {
        if (row.get_indicator(0) != soci::i_null) {
            reports.push_back(Json::parse(row.get<std::string>(0)));
        }
    }
    return aggregate_shard_metadata(reports);
}

}  // namespace loupe::builds
