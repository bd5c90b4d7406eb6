#include "store/commit_statuses.hpp"

#include "loupe/db/dialect.hpp"
#include "loupe/db/row_reader.hpp"
#include "loupe/json.hpp"

namespace loupe::git {

int64_t request_push(soci::session& session, int64_t build_id, int64_t project_id, int64_t now) {
    int64_t seq = 0;
    session << "INSERT INTO git_commit_statuses (build_id, project_id, wanted_seq, updated_at) "
               "VALUES (:build, :project, 1, :now) ON CONFLICT (build_id) DO UPDATE SET "
               "wanted_seq = git_commit_statuses.wanted_seq + 1, updated_at = excluded.updated_at "
               "RETURNING wanted_seq",
        soci::use(build_id), soci::use(project_id), soci::use(now), soci::into(seq);
    return seq;
}

Claim claim_push(soci::session& session, int64_t build_id, int64_t seq, int64_t now,
                 int64_t lease_ms) {
    return claim_outbox_row(session, commit_status_outbox, build_id, seq, now, lease_ms);
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

void record_pushed(soci::session& session, int64_t build_id, int64_t claimed_seq,
                   const PushedStatus& status, int64_t now) {
    // Every placeholder appears once (the PostgreSQL driver binds a repeated name only once).
    session << "UPDATE git_commit_statuses SET pushed_seq = CASE WHEN pushed_seq > :seq1 THEN "
               "pushed_seq ELSE :seq2 END, lease_until = NULL, provider = :provider, sha = :sha, "
               "state = :state, description = :description, context = :context, pushed_at = "
               ":now1, last_error = NULL, failed_at = NULL, updated_at = :now2 WHERE build_id = "
               ":build",
        soci::use(claimed_seq), soci::use(claimed_seq), soci::use(status.provider),
        soci::use(status.sha), soci::use(status.state), soci::use(status.description),
        soci::use(status.context), soci::use(now), soci::use(now), soci::use(build_id);
}

void mark_covered(soci::session& session, int64_t build_id, int64_t claimed_seq, int64_t now) {
    mark_outbox_covered(session, commit_status_outbox, build_id, claimed_seq, now);
}

void release_push(soci::session& session, int64_t build_id, const std::string& error, int64_t now) {
    release_outbox_row(session, commit_status_outbox, build_id, error, now);
}

void record_push_failed(soci::session& session, int64_t build_id, const std::string& error,
                        int64_t now) {
    record_outbox_failed(session, commit_status_outbox, build_id, error, now);
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
