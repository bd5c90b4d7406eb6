#include "store/test_stats.hpp"

#include <soci/soci.h>

#include <functional>

#include "loupe/db/dialect.hpp"
#include "loupe/db/row_reader.hpp"
#include "loupe/db/rows_for_ids.hpp"
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

int64_t change_occurrences(soci::session& session, int64_t test_id, const std::string& fingerprint,
                           int64_t from) {
    long long sum = 0;
    session << "SELECT CAST(COALESCE(SUM(value), 0) AS BIGINT) FROM test_stats_fingerprints WHERE "
               "test_id = :t AND "
               "fingerprint = :f AND day >= :from",
        soci::use(test_id), soci::use(fingerprint), soci::use(from), soci::into(sum);
    return sum;
}

namespace {

// `test_id IN (...)` over a bound JSON array of ids.
constexpr const char* in_tests =
    "test_id IN (SELECT CAST(value AS BIGINT) FROM {{json_rows:tests}})";

std::string sql_with_tests(soci::session& session, const std::string& before,
                           const std::string& after) {
    return render_sql(dialect_of(session), before + in_tests + after);
}

}  // namespace

std::map<int64_t, TestCounts> test_counts_for(soci::session& session,
                                              const std::vector<int64_t>& test_ids, int64_t from,
                                              int64_t now) {
    std::map<int64_t, TestCounts> counts;
    if (test_ids.empty()) {
        return counts;
    }
    const std::string tests = Json(test_ids).dump();
    auto each = [&](const std::string& sql, const std::function<void(const soci::row&)>& read) {
        soci::rowset<soci::row> rows = (session.prepare << sql, soci::use(tests, "tests"),
                                        soci::use(from, "from"), soci::use(now, "now"));
        for (const auto& row : rows) {
            read(row);
        }
    };
    const std::string window = " AND day >= :from AND day < :now";
    auto sum_per_test = [&](const char* table, int64_t TestCounts::*field) {
        each(sql_with_tests(session,
                            std::string("SELECT test_id, CAST(COALESCE(SUM(value), 0) AS BIGINT) "
                                        "AS total FROM ") +
                                table + " WHERE ",
                            window + " GROUP BY test_id"),
             [&](const soci::row& row) {
                 RowReader r(row);
                 counts[r.int64("test_id")].*field = r.int64("total");
             });
    };
    sum_per_test("test_stats_builds", &TestCounts::total);
    sum_per_test("test_stats_fingerprints", &TestCounts::changes);
    each(
        sql_with_tests(session,
                       "SELECT test_id, COUNT(*) AS once FROM (SELECT test_id, fingerprint FROM "
                       "test_stats_fingerprints WHERE ",
                       window + " GROUP BY test_id, fingerprint HAVING COUNT(DISTINCT day) = 1) AS "
                                "single_day GROUP BY test_id"),
        [&](const soci::row& row) {
            RowReader r(row);
            counts[r.int64("test_id")].unique_changes = r.int64("once");
        });
    return counts;
}

std::vector<int64_t> project_tests_counted(soci::session& session, int64_t project_id, int64_t from,
                                           int64_t now) {
    std::vector<int64_t> ids;
    soci::rowset<soci::row> rows =
        (session.prepare << "SELECT DISTINCT s.test_id AS test_id FROM test_stats_builds s JOIN "
                            "build_tests t ON t.id = s.test_id WHERE t.project_id = :project AND "
                            "s.day >= :from AND s.day < :now ORDER BY s.test_id",
         soci::use(project_id, "project"), soci::use(from, "from"), soci::use(now, "now"));
    for (const auto& row : rows) {
        ids.push_back(RowReader(row).int64("test_id"));
    }
    return ids;
}

std::string project_name_of(soci::session& session, int64_t project_id) {
    std::string name;
    session << "SELECT name FROM projects WHERE id = :id", soci::use(project_id), soci::into(name);
    return session.got_data() ? name : std::string();
}

std::map<std::pair<int64_t, std::string>, int64_t> change_occurrences_for(
    soci::session& session, const std::vector<int64_t>& test_ids, int64_t from) {
    std::map<std::pair<int64_t, std::string>, int64_t> occurrences;
    if (test_ids.empty()) {
        return occurrences;
    }
    const std::string tests = Json(test_ids).dump();
    soci::rowset<soci::row> rows =
        (session.prepare << sql_with_tests(session,
                                           "SELECT test_id, fingerprint, CAST(COALESCE(SUM(value), "
                                           "0) AS BIGINT) AS occurrences FROM "
                                           "test_stats_fingerprints WHERE ",
                                           " AND day >= :from GROUP BY test_id, fingerprint"),
         soci::use(tests, "tests"), soci::use(from, "from"));
    for (const auto& row : rows) {
        RowReader r(row);
        occurrences[{r.int64("test_id"), r.text("fingerprint")}] = r.int64("occurrences");
    }
    return occurrences;
}

std::map<int64_t, TestRow> tests_by_id(soci::session& session,
                                       const std::vector<int64_t>& test_ids) {
    std::map<int64_t, TestRow> tests;
    for_each_row_of_ids(session,
                        "SELECT id, name, build_name FROM build_tests WHERE id IN (SELECT "
                        "CAST(value AS BIGINT) FROM {{json_rows:ids}})",
                        test_ids, [&](const soci::row& row) {
                            RowReader r(row);
                            tests[r.int64("id")] = {r.text("name"), r.text("build_name")};
                        });
    return tests;
}

}  // namespace loupe::builds
