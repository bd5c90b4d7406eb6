#include "jobs/job_maintenance.hpp"

namespace loupe {

int64_t purge_done_jobs(Database& database, int64_t cutoff) {
    return database.transaction([&](soci::session& session) -> int64_t {
        soci::statement statement =
            (session.prepare << "DELETE FROM jobs WHERE status = 'done' AND updated_at < :cutoff",
             soci::use(cutoff));
        statement.execute(true);
        return statement.get_affected_rows();
    });
}

std::vector<std::string> unhandled_queued_kinds(Database& database, const KindFilter& handled) {
    std::string query = "SELECT DISTINCT kind FROM jobs WHERE status = 'queued'";
    if (!handled.empty()) {
        query += " AND NOT (" + handled.sql() + ")";
    }
    std::vector<std::string> kinds;
    std::string kind;
    auto session = database.session();
    auto statement = prepare_statement(*session, query, [&](soci::statement& s) {
        s.exchange(soci::into(kind));
        handled.bind(s);
    });
    if (statement.execute(true)) {
        do {
            kinds.push_back(kind);
        } while (statement.fetch());
    }
    return kinds;
}

}  // namespace loupe
