#include "store/ignored_changes.hpp"

#include <soci/soci.h>

#include "loupe/db/dialect.hpp"
#include "loupe/db/row_reader.hpp"
#include "loupe/json.hpp"

namespace loupe::builds {
namespace {

void audit(soci::session& session, int64_t project_id, int64_t test_id,
           const std::string& fingerprint, const std::string& action, const IgnoreActor& actor) {
    const int64_t now = now_ms();
    const int64_t user_id = actor.user_id.value_or(0);
    session << "INSERT INTO ignored_change_audit (project_id, test_id, fingerprint, action, "
               "user_id, created_at) VALUES (:p, :t, :f, :a, NULLIF(:u, CAST(0 AS BIGINT)), :now)",
        soci::use(project_id), soci::use(test_id), soci::use(fingerprint), soci::use(action),
        soci::use(user_id), soci::use(now);
}

}  // namespace

void record_ignored_change(soci::session& session, int64_t project_id, int64_t test_id,
                           const std::string& fingerprint, const IgnoreActor& actor) {
    if (change_is_ignored(session, project_id, test_id, fingerprint)) {
        return;
    }
    const int64_t now = now_ms();
    session << "INSERT INTO ignored_changes (project_id, test_id, fingerprint, created_at) "
               "VALUES (:p, :t, :f, :now) ON CONFLICT (project_id, test_id, fingerprint) DO "
               "NOTHING",
        soci::use(project_id), soci::use(test_id), soci::use(fingerprint), soci::use(now);
    audit(session, project_id, test_id, fingerprint, "ignore", actor);
}

void remove_ignored_change(soci::session& session, int64_t project_id, int64_t test_id,
                           const std::string& fingerprint, const IgnoreActor& actor) {
    if (!change_is_ignored(session, project_id, test_id, fingerprint)) {
        return;
    }
    session << "DELETE FROM ignored_changes WHERE project_id = :p AND test_id = :t AND "
               "fingerprint = :f",
        soci::use(project_id), soci::use(test_id), soci::use(fingerprint);
    audit(session, project_id, test_id, fingerprint, "unignore", actor);
}

bool unignored_by_a_person(soci::session& session, int64_t project_id, int64_t test_id,
                           const std::string& fingerprint) {
    std::string action;
    soci::indicator user_indicator = soci::i_null;
    long long user_id = 0;
    session << "SELECT action, user_id FROM ignored_change_audit WHERE project_id = :p AND "
               "test_id = :t AND fingerprint = :f ORDER BY id DESC LIMIT 1",
        soci::use(project_id), soci::use(test_id), soci::use(fingerprint), soci::into(action),
        soci::into(user_id, user_indicator);
    return session.got_data() && action == "unignore" && user_indicator != soci::i_null;
}

bool change_is_ignored(soci::session& session, int64_t project_id, int64_t test_id,
                       const std::string& fingerprint) {
    int found = 0;
    session << "SELECT COUNT(*) FROM ignored_changes WHERE project_id = :p AND test_id = :t AND "
               "fingerprint = :f",
        soci::use(project_id), soci::use(test_id), soci::use(fingerprint), soci::into(found);
    return found > 0;
}

std::set<std::pair<int64_t, std::string>> ignored_changes_of(soci::session& session,
                                                             int64_t project_id,
                                                             const std::vector<int64_t>& test_ids) {
    std::set<std::pair<int64_t, std::string>> ignored;
    if (test_ids.empty()) {
        return ignored;
    }
    const std::string ids = Json(test_ids).dump();
    soci::rowset<soci::row> rows =
        (session.prepare << render_sql(dialect_of(session),
                                       "SELECT test_id, fingerprint FROM ignored_changes WHERE "
                                       "project_id = :project AND test_id IN (SELECT CAST(value "
                                       "AS BIGINT) FROM {{json_rows:ids}})"),
         soci::use(project_id, "project"), soci::use(ids, "ids"));
    for (const auto& row : rows) {
        RowReader r(row);
        ignored.emplace(r.int64("test_id"), r.text("fingerprint"));
    }
    return ignored;
}

std::optional<std::string> fingerprint_with_hash(soci::session& session, int64_t test_id,
                                                 const std::string& hash) {
    std::string fingerprint;
    const std::string suffix = "%:" + hash;
    session << "SELECT fingerprint FROM screenshot_diffs WHERE test_id = :t AND fingerprint "
               "LIKE :suffix LIMIT 1",
        soci::use(test_id), soci::use(suffix), soci::into(fingerprint);
    if (!session.got_data()) {
        return std::nullopt;
    }
    return fingerprint;
}

std::optional<std::string> known_fingerprint(soci::session& session, int64_t test_id,
                                             const std::string& fingerprint) {
    int found = 0;
    session << "SELECT COUNT(*) FROM (SELECT 1 FROM screenshot_diffs WHERE test_id = :t AND "
               "fingerprint = :f LIMIT 1) AS hit",
        soci::use(test_id), soci::use(fingerprint), soci::into(found);
    return found > 0 ? std::optional<std::string>(fingerprint) : std::nullopt;
}

bool test_in_project(soci::session& session, int64_t project_id, int64_t test_id) {
    int found = 0;
    session << "SELECT COUNT(*) FROM build_tests WHERE id = :t AND project_id = :p",
        soci::use(test_id), soci::use(project_id), soci::into(found);
    return found > 0;
}

}  // namespace loupe::builds
