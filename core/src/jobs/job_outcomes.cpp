#include "jobs/job_outcomes.hpp"

#include "jobs/utf8_prefix.hpp"
#include "loupe/json.hpp"

namespace loupe {
namespace {

// An exception message can be arbitrarily long (a whole HTTP body); the row keeps its start.
constexpr std::size_t max_error_bytes = 4000;

template <class... Values>
bool update_own_job(Database& database, const std::string& assignments, const Values&... values) {
    return database.transaction([&](soci::session& session) {
        soci::statement statement =
            ((session.prepare << "UPDATE jobs SET " + assignments +
                                     " WHERE id = :id AND status = 'running' AND locked_by = "
                                     ":instance"),
             ..., soci::use(values));
        statement.execute(true);
        return statement.get_affected_rows() > 0;
    });
}

}  // namespace

bool mark_job_done(Database& database, int64_t id, const std::string& instance) {
    const int64_t now = now_ms();
    return update_own_job(database, "status = 'done', lease_until = NULL, updated_at = :now", now,
                          id, instance);
}

bool requeue_job(Database& database, int64_t id, const std::string& instance, int64_t run_at,
                 const std::string& error) {
    const int64_t now = now_ms();
    const std::string message = utf8_prefix(error, max_error_bytes);
    return update_own_job(database,
                          "status = 'queued', run_at = :run_at, lease_until = NULL, "
                          "last_error = :error, updated_at = :now",
                          run_at, message, now, id, instance);
}

bool mark_job_failed(Database& database, int64_t id, const std::string& instance,
                     const std::string& error) {
    const int64_t now = now_ms();
    const std::string message = utf8_prefix(error, max_error_bytes);
    return update_own_job(database,
                          "status = 'failed', lease_until = NULL, last_error = :error, "
                          "updated_at = :now",
                          message, now, id, instance);
}

bool release_job(Database& database, int64_t id, const std::string& instance, int64_t run_at) {
    const int64_t now = now_ms();
    return update_own_job(database,
                          "status = 'queued', run_at = :run_at, lease_until = NULL, "
                          "attempts = CASE WHEN attempts > 0 THEN attempts - 1 ELSE 0 END, "
                          "updated_at = :now",
                          run_at, now, id, instance);
}

void extend_leases(Database& database, const std::vector<int64_t>& ids, const std::string& instance,
                   int64_t lease_until) {
    if (ids.empty()) {
        return;
    }
    database.transaction([&](soci::session& session) {
        int64_t id = 0;
        soci::statement statement =
            (session.prepare << "UPDATE jobs SET lease_until = :lease WHERE id = :id AND "
                                "status = 'running' AND locked_by = :instance",
             soci::use(lease_until), soci::use(id), soci::use(instance));
        for (const int64_t held : ids) {
            id = held;
            statement.execute(true);
        }
    });
}

}  // namespace loupe
