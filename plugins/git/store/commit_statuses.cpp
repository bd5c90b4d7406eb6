#include "store/commit_statuses.hpp"

#include "loupe/db/dialect.hpp"
#include "loupe/db/row_reader.hpp"
#include "loupe/json.hpp"

namespace loupe::git {

Claim claim_push(soci::session& session, int64_t build_id, int64_t project_id, int64_t now,
                 int64_t lease_ms) {
    const int64_t until = now + lease_ms;
    const int64_t now_again = now;
    // Every placeholder appears once (the PostgreSQL driver binds a repeated name only once).
    soci::statement claim =
        (session.prepare << "INSERT INTO git_commit_statuses (build_id, project_id, lease_until, "
                            "updated_at) VALUES (:build, :project, :until, :now) ON CONFLICT "
                            "(build_id) DO UPDATE SET lease_until = excluded.lease_until, "
                            "updated_at = excluded.updated_at WHERE "
                            "git_commit_statuses.lease_until IS NULL OR "
                            "git_commit_statuses.lease_until < :now_again",
         soci::use(build_id), soci::use(project_id), soci::use(until), soci::use(now),
         soci::use(now_again));
    claim.execute(true);
    Claim result;
    if (claim.get_affected_rows() > 0) {
        return result;
    }
    result.result = ClaimResult::busy;
    std::optional<int64_t> lease_until;
    soci::indicator indicator = soci::i_null;
    int64_t value = 0;
    session << "SELECT lease_until FROM git_commit_statuses WHERE build_id = :build",
        soci::use(build_id), soci::into(value, indicator);
    result.lease_until = indicator == soci::i_ok ? value : now;
    return result;
}

std::optional<PushedStatus> last_pushed(soci::session& session, int64_t build_id) {
    soci::row row;
    session << "SELECT provider, sha, state, description, context FROM git_commit_statuses "
               "WHERE build_id = :build AND pushed_at IS NOT NULL",
        soci::use(build_id), soci::into(row);
    if (!session.got_data()) {
        return std::nullopt;
    }
    RowReader read(row);
    return PushedStatus{read.text("provider"), read.text("sha"), read.text("state"),
                        read.text("description"), read.text("context")};
}

void record_pushed(soci::session& session, int64_t build_id, const PushedStatus& status,
                   int64_t now) {
    session << "UPDATE git_commit_statuses SET lease_until = NULL, provider = :provider, sha = "
               ":sha, state = :state, description = :description, context = :context, "
               "pushed_at = :now1, last_error = NULL, failed_at = NULL, updated_at = :now2 WHERE "
               "build_id = :build",
        soci::use(status.provider), soci::use(status.sha), soci::use(status.state),
        soci::use(status.description), soci::use(status.context), soci::use(now), soci::use(now),
        soci::use(build_id);
}

void release_push(soci::session& session, int64_t build_id, int64_t now) {
    session << "UPDATE git_commit_statuses SET lease_until = NULL, updated_at = :now WHERE "
               "build_id = :build",
        soci::use(now), soci::use(build_id);
}

void release_failed_push(soci::session& session, int64_t build_id, const std::string& error,
                         int64_t now) {
    session << "UPDATE git_commit_statuses SET lease_until = NULL, last_error = :error, "
               "updated_at = :now WHERE build_id = :build",
        soci::use(error), soci::use(now), soci::use(build_id);
}

void record_push_failed(soci::session& session, int64_t build_id, const std::string& error,
                        int64_t now) {
    session << "UPDATE git_commit_statuses SET last_error = :error, failed_at = :now1, "
               "updated_at = :now2 WHERE build_id = :build",
        soci::use(error), soci::use(now), soci::use(now), soci::use(build_id);
}

int64_t delete_statuses_of_builds(soci::session& session, const std::vector<int64_t>& build_ids) {
    if (build_ids.empty()) {
        return 0;
    }
    const std::string ids = Json(build_ids).dump();
    soci::statement statement =
        (session.prepare << render_sql(dialect_of(session),
                                       "DELETE FROM git_commit_statuses WHERE build_id IN (SELECT "
                                       "CAST(value AS BIGINT) FROM {{json_rows:ids}})"),
         soci::use(ids, "ids"));
    statement.execute(true);
    return statement.get_affected_rows();
}

}  // namespace loupe::git
