#include "store/build_activity.hpp"

#include <soci/soci.h>

#include "loupe/db/row_reader.hpp"
#include "loupe/json.hpp"

namespace loupe::builds {
namespace {

// 1970-01-01 was a Thursday: the first Monday starts 4 days later.
constexpr const char* day_ms = "86400000";
constexpr const char* week_ms = "604800000";
constexpr const char* first_monday_ms = "345600000";

}  // namespace

std::string bucket_start_sql(Dialect dialect, ActivityBucket bucket, const std::string& column) {
    switch (bucket) {
        case ActivityBucket::day:
            // Remainders are taken non-negative so times before 1970 fall in the right day.
            return "(" + column + " - ((" + column + " % " + day_ms + " + " + day_ms + ") % " +
                   day_ms + "))";
        case ActivityBucket::week:
            return "(" + column + " - (((" + column + " - " + first_monday_ms + ") % " + week_ms +
                   " + " + week_ms + ") % " + week_ms + "))";
        case ActivityBucket::month:
            break;
    }
    if (dialect == Dialect::sqlite) {
        return "(CAST(strftime('%s', CAST(" + column +
               " / 1000 AS INTEGER), 'unixepoch', 'start of month') AS BIGINT) * 1000)";
    }
    return "(CAST(EXTRACT(EPOCH FROM date_trunc('month', to_timestamp(FLOOR(" + column +
           " / 1000.0)) AT TIME ZONE 'UTC')) AS BIGINT) * 1000)";
}

std::vector<BuildActivityRow> build_activity(soci::session& session,
                                             const std::vector<int64_t>& project_ids,
                                             int64_t from_ms, int64_t to_ms,
                                             ActivityBucket bucket) {
    std::vector<BuildActivityRow> out;
    if (project_ids.empty()) {
        return out;
    }
    const Dialect dialect = dialect_of(session);
    const std::string projects = Json(project_ids).dump();
    const std::string sql = render_sql(
        dialect,
        "SELECT " + bucket_start_sql(dialect, bucket, "created_at") +
            " AS bucket, project_id, CAST(COUNT(*) AS BIGINT) AS builds, "
            "CAST(COALESCE(SUM(screenshot_count), 0) AS BIGINT) AS screenshots, "
            "CAST(SUM(CASE WHEN conclusion = 'changes-detected' THEN 1 ELSE 0 END) AS BIGINT) "
            "AS changes_detected, "
            "CAST(SUM(CASE WHEN conclusion = 'no-changes' THEN 1 ELSE 0 END) AS BIGINT) "
            "AS no_changes, "
            "CAST(SUM(CASE WHEN conclusion = 'changes-detected' AND review_state = 'accepted' "
            "THEN 1 ELSE 0 END) AS BIGINT) AS accepted, "
            "CAST(SUM(CASE WHEN conclusion = 'changes-detected' AND review_state = 'rejected' "
            "THEN 1 ELSE 0 END) AS BIGINT) AS rejected "
            "FROM builds WHERE project_id IN (SELECT CAST(value AS BIGINT) FROM "
            "{{json_rows:projects}}) AND created_at >= :from_ms AND created_at <= :to_ms "
            "GROUP BY 1, project_id ORDER BY 1, project_id");
    soci::rowset<soci::row> rows = (session.prepare << sql, soci::use(projects, "projects"),
                                    soci::use(from_ms, "from_ms"), soci::use(to_ms, "to_ms"));
    for (const auto& row : rows) {
        RowReader r(row);
        out.push_back({r.int64("bucket"), r.int64("project_id"), r.int64("builds"),
                       r.int64("screenshots"), r.int64("changes_detected"), r.int64("no_changes"),
                       r.int64("accepted"), r.int64("rejected")});
    }
    return out;
}

}  // namespace loupe::builds
