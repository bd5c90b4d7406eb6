#include "processing/test_counters.hpp"

#include <soci/soci.h>

#include "loupe/db/dialect.hpp"
#include "loupe/json.hpp"
#include "metrics/test_metrics.hpp"

namespace loupe::builds {

void bump_test_counters(soci::session& session, int64_t test_id,
                        const std::optional<std::string>& fingerprint, int64_t diff_created_at) {
    const int64_t day = local_day_start_ms(diff_created_at);
    session << "INSERT INTO test_stats_builds (test_id, day, value) VALUES (:t, :d, 1) "
               "ON CONFLICT (test_id, day) DO UPDATE SET value = test_stats_builds.value + 1",
        soci::use(test_id), soci::use(day);
    if (fingerprint) {
        session << "INSERT INTO test_stats_fingerprints (test_id, fingerprint, day, value) "
                   "VALUES (:t, :f, :d, 1) ON CONFLICT (test_id, fingerprint, day) DO UPDATE "
                   "SET value = test_stats_fingerprints.value + 1",
            soci::use(test_id), soci::use(*fingerprint), soci::use(day);
    }
}

void bump_build_counters(soci::session& session, const std::vector<int64_t>& test_ids,
                         int64_t diff_created_at) {
    if (test_ids.empty()) {
        return;
    }
    const int64_t day = local_day_start_ms(diff_created_at);
    const std::string rows = Json(test_ids).dump();
    session << render_sql(dialect_of(session),
                          "INSERT INTO test_stats_builds (test_id, day, value) SELECT "
                          "CAST(value AS BIGINT), :day, COUNT(*) FROM {{json_rows:rows}} "
                          "GROUP BY CAST(value AS BIGINT) "
                          "ON CONFLICT (test_id, day) DO UPDATE SET value = "
                          "test_stats_builds.value + excluded.value"),
        soci::use(day, "day"), soci::use(rows, "rows");
}

bool auto_ignore_due(soci::session& session, int64_t test_id, const std::string& fingerprint,
                     int64_t threshold, int64_t now) {
    if (threshold <= 0) {
        return false;
    }
    return change_occurrences(session, test_id, fingerprint,
                              period_start_ms(MetricsPeriod::last_7_days, now)) >= threshold;
}

void record_ignored_change(soci::session& session, int64_t project_id, int64_t test_id,
                           const std::string& fingerprint) {
    const int64_t now = now_ms();
    session << "INSERT INTO ignored_changes (project_id, test_id, fingerprint, created_at) "
               "VALUES (:p, :t, :f, :now) ON CONFLICT (project_id, test_id, fingerprint) DO "
               "NOTHING",
        soci::use(project_id), soci::use(test_id), soci::use(fingerprint), soci::use(now);
}

TestCounts test_counts(soci::session& session, int64_t test_id, int64_t from, int64_t now) {
    TestCounts counts;
    long long total = 0, changes = 0, unique = 0;
    session << "SELECT CAST(COALESCE(SUM(value), 0) AS BIGINT) FROM test_stats_builds WHERE "
               "test_id = :t AND day >= :f AND "
               "day < :n",
        soci::use(test_id), soci::use(from), soci::use(now), soci::into(total);
    session << "SELECT CAST(COALESCE(SUM(value), 0) AS BIGINT) FROM test_stats_fingerprints WHERE "
               "test_id = :t AND day >= :f "
               "AND day < :n",
        soci::use(test_id), soci::use(from), soci::use(now), soci::into(changes);
    session << "SELECT COUNT(*) FROM (SELECT fingerprint FROM test_stats_fingerprints WHERE "
               "test_id = :t AND day >= :f AND day < :n GROUP BY fingerprint HAVING "
               "COUNT(DISTINCT day) = 1) AS once",
        soci::use(test_id), soci::use(from), soci::use(now), soci::into(unique);
    counts.total = total;
    counts.changes = changes;
    counts.unique_changes = unique;
    return counts;
}

int64_t change_occurrences(soci::session& session, int64_t test_id, const std::string& fingerprint,
                           int64_t from) {
    long long sum = 0;
    session << "SELECT CAST(COALESCE(SUM(value), 0) AS BIGINT) FROM test_stats_fingerprints WHERE "
               "test_id = :t AND "
               "fingerprint = :f AND day >= :from",
        soci::use(test_id), soci::use(fingerprint), soci::use(from), soci::into(sum);
    return sum;
}

}  // namespace loupe::builds
