#include "store/build_activity.hpp"

#include <soci/soci.h>

#include <exception>

#include "loupe/db/row_reader.hpp"
#include "loupe/json.hpp"

namespace loupe::builds {
namespace {

// 1970-01-01 was a Thursday: the first Monday starts 4 days later.
constexpr const char* day_ms = "86400000";
constexpr const char* week_ms = "604800000";
constexpr const char* first_monday_ms = "345600000";
constexpr int64_t day_length_ms = 86'400'000;

// PostgreSQL would split this short scan over parallel workers, which costs more than it saves
// on a busy server (measured: 105 ms instead of 40 ms for a year of 100,000 builds on 2 cores):
// parallel plans are switched off for the statement and restored afterwards. A SET inside a
// transaction that fails is undone by its rollback, so only the reset may fail here.
class SerialPlansOnPostgres {
public:
    SerialPlansOnPostgres(soci::session& session, Dialect dialect)
        : session_(session), active_(dialect == Dialect::postgresql) {
        if (active_) {
            session_ << "SET max_parallel_workers_per_gather = 0";
        }
    }
    ~SerialPlansOnPostgres() {
        if (!active_) {
            return;
        }
        try {
            session_ << "RESET max_parallel_workers_per_gather";
        } catch (const std::exception&) {  // an aborted transaction: its rollback undoes the SET
        }
    }
    SerialPlansOnPostgres(const SerialPlansOnPostgres&) = delete;
    SerialPlansOnPostgres& operator=(const SerialPlansOnPostgres&) = delete;

private:
    soci::session& session_;
    bool active_;
};

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

std::vector<int64_t> account_projects_with_builds(soci::session& session, int64_t account_id,
                                                  int64_t from_ms, int64_t to_ms) {
    std::vector<int64_t> ids;
    soci::rowset<soci::row> rows =
        (session.prepare << "SELECT p.id AS id FROM projects p WHERE p.account_id = :account AND "
                            "EXISTS (SELECT 1 FROM builds b WHERE b.project_id = p.id AND "
                            "b.created_at >= :from_ms AND b.created_at <= :to_ms) ORDER BY p.id",
         soci::use(account_id, "account"), soci::use(from_ms, "from_ms"),
         soci::use(to_ms, "to_ms"));
    for (const auto& row : rows) {
        ids.push_back(RowReader(row).int64("id"));
    }
    return ids;
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
    // PostgreSQL matches a bound array best; SQLite reads the ids from a bound JSON array.
    std::string projects;
    std::string in_projects;
    if (dialect == Dialect::postgresql) {
        for (auto id : project_ids) {
            projects += (projects.empty() ? "{" : ",") + std::to_string(id);
        }
        projects += "}";
        in_projects = "project_id = ANY(CAST(:projects AS BIGINT[]))";
    } else {
        projects = Json(project_ids).dump();
        in_projects = "project_id IN (SELECT CAST(value AS BIGINT) FROM {{json_rows:projects}})";
    }
    // Counted per day first, then per bucket. The day is `created_at / 86400000`, exactly the
    // expression of the index builds_project_day_activity, so the builds are read in (project,
    // day) order without a sort (build times are after 1970, where that division is the floor);
    // the bucket, computed once per day instead of once per build, is that of the day's start.
    const int64_t from_day = from_ms / day_length_ms - (from_ms % day_length_ms < 0 ? 1 : 0);
    const int64_t to_day = to_ms / day_length_ms - (to_ms % day_length_ms < 0 ? 1 : 0);
    const std::string sql = render_sql(
        dialect,
        "SELECT " + bucket_start_sql(dialect, bucket, "(day * 86400000)") +
            " AS bucket, project_id, CAST(SUM(builds) AS BIGINT) AS builds, "
            "CAST(SUM(screenshots) AS BIGINT) AS screenshots, "
            "CAST(SUM(changes_detected) AS BIGINT) AS changes_detected, "
            "CAST(SUM(no_changes) AS BIGINT) AS no_changes, "
            "CAST(SUM(accepted) AS BIGINT) AS accepted, CAST(SUM(rejected) AS BIGINT) AS rejected "
            "FROM (SELECT project_id, created_at / 86400000 AS day, COUNT(*) AS builds, "
            "COALESCE(SUM(screenshot_count), 0) AS screenshots, "
            "SUM(CASE WHEN conclusion = 'changes-detected' THEN 1 ELSE 0 END) AS changes_detected, "
            "SUM(CASE WHEN conclusion = 'no-changes' THEN 1 ELSE 0 END) AS no_changes, "
            "SUM(CASE WHEN conclusion = 'changes-detected' AND review_state = 'accepted' "
            "THEN 1 ELSE 0 END) AS accepted, "
            "SUM(CASE WHEN conclusion = 'changes-detected' AND review_state = 'rejected' "
            "THEN 1 ELSE 0 END) AS rejected "
            "FROM builds WHERE " +
            in_projects +
            " AND created_at / 86400000 >= :from_day AND created_at / 86400000 <= :to_day"
            " AND created_at >= :from_ms AND created_at <= :to_ms"
            " GROUP BY project_id, created_at / 86400000) AS days "
            "GROUP BY 1, project_id ORDER BY 1, project_id");
    const SerialPlansOnPostgres serial(session, dialect);
    soci::rowset<soci::row> rows =
        (session.prepare << sql, soci::use(projects, "projects"), soci::use(from_day, "from_day"),
         soci::use(to_day, "to_day"), soci::use(from_ms, "from_ms"), soci::use(to_ms, "to_ms"));
    for (const auto& row : rows) {
        RowReader r(row);
        out.push_back({r.int64("bucket"), r.int64("project_id"), r.int64("builds"),
                       r.int64("screenshots"), r.int64("changes_detected"), r.int64("no_changes"),
                       r.int64("accepted"), r.int64("rejected")});
    }
    return out;
}

}  // namespace loupe::builds
