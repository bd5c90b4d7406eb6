#include "store/prune_schedule.hpp"

#include <soci/soci.h>

#include "loupe/db/row_reader.hpp"

namespace loupe::builds {

std::optional<PruneSchedule> load_prune_schedule(soci::session& session) {
    soci::rowset<soci::row> rows =
        (session.prepare << "SELECT sequence, next_run_at, last_run_at FROM build_prune_schedule "
                            "WHERE id = 1");
    for (const auto& row : rows) {
        const RowReader read(row);
        PruneSchedule schedule;
        schedule.sequence = read.int64("sequence");
        schedule.next_run_at = read.int64("next_run_at");
        schedule.last_run_at = read.optional_int("last_run_at");
        return schedule;
    }
    return std::nullopt;
}

bool create_prune_schedule(soci::session& session, int64_t next_run_at) {
    soci::statement statement =
        (session.prepare << "INSERT INTO build_prune_schedule (id, sequence, next_run_at) VALUES "
                            "(1, 0, :n) ON CONFLICT (id) DO NOTHING",
         soci::use(next_run_at));
    statement.execute(true);
    return statement.get_affected_rows() == 1;
}

bool advance_prune_schedule(soci::session& session, int64_t sequence, int64_t next_run_at,
                            std::optional<int64_t> ran_at, const std::string& report) {
    // A run that did not finish keeps the previous run's time and report.
    const int64_t ran = ran_at.value_or(-1);
    soci::statement statement =
        (session.prepare << "UPDATE build_prune_schedule SET sequence = sequence + 1, "
                            "next_run_at = :next, last_run_at = COALESCE(NULLIF(:ran, CAST(-1 AS "
                            "BIGINT)), last_run_at), last_report = COALESCE(NULLIF(:report, ''), "
                            "last_report) WHERE id = 1 AND sequence = :sequence",
         soci::use(next_run_at, "next"), soci::use(ran, "ran"), soci::use(report, "report"),
         soci::use(sequence, "sequence"));
    statement.execute(true);
    return statement.get_affected_rows() == 1;
}

}  // namespace loupe::builds
