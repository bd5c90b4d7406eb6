#include "finalize.hpp"

#include "store/screenshots.hpp"
#include "store/shards.hpp"

namespace loupe::builds {

void finalize_build(soci::session& session, JobQueue& jobs, const BuildEvents& events,
                    Build& build) {
    build.screenshot_count = count_build_screenshots(session, build.id);
    build.complete = true;
    build.partial = false;
    const Json* report = build.metadata.is_object() && build.metadata.contains("testReport")
                             ? &build.metadata["testReport"]
                             : nullptr;
    build.valid = report == nullptr || report->value("status", "") == "passed";
    build.finalized_at = now_ms();
    update_build_state(session, build);
    jobs.enqueue(session, process_job_kind, Json{{"buildId", build.id}});
    events.publish(session, BuildEvent::finalized, build);
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
    return aggregate_shard_metadata(completed_shard_metadata(session, build_id));
}

}  // namespace loupe::builds
