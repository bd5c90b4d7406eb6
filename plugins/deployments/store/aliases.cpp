#include "store/aliases.hpp"

#include <soci/soci.h>

#include "loupe/db/row_reader.hpp"
#include "loupe/db/rows_for_ids.hpp"
#include "loupe/json.hpp"

namespace loupe::deployments {

void upsert_alias(soci::session& session, const std::string& alias, const std::string& type,
                  int64_t project_id, int64_t deployment_id) {
    const int64_t now = now_ms();
    session << "INSERT INTO deployment_aliases (alias, project_id, deployment_id, type, "
               "updated_at) VALUES (:alias, :project, :deployment, :type, :now) "
               "ON CONFLICT (alias) DO UPDATE SET deployment_id = excluded.deployment_id, "
               "type = excluded.type, updated_at = excluded.updated_at "
               "WHERE deployment_aliases.project_id = excluded.project_id "
               "AND deployment_aliases.legacy = 0 "
               "AND deployment_aliases.deployment_id < excluded.deployment_id",
        soci::use(alias, "alias"), soci::use(project_id, "project"),
        soci::use(deployment_id, "deployment"), soci::use(type, "type"), soci::use(now, "now");
}

std::optional<int64_t> alias_owner(soci::session& session, const std::string& alias) {
    int64_t project_id = 0;
    session << "SELECT project_id FROM deployment_aliases WHERE alias = :alias",
        soci::use(alias, "alias"), soci::into(project_id);
    return session.got_data() ? std::optional(project_id) : std::nullopt;
}

void follow_legacy_alias(soci::session& session, const std::string& alias, const std::string& type,
                         int64_t project_id, int64_t deployment_id) {
    const int64_t now = now_ms();
    session << "UPDATE deployment_aliases SET deployment_id = :deployment, updated_at = :now "
               "WHERE alias = :alias AND legacy = 1 AND project_id = :project AND type = :type "
               "AND deployment_id < :deployment2",
        soci::use(deployment_id, "deployment"), soci::use(now, "now"), soci::use(alias, "alias"),
        soci::use(project_id, "project"), soci::use(type, "type"),
        soci::use(deployment_id, "deployment2");
}

void delete_alias(soci::session& session, const std::string& alias, int64_t project_id) {
    session << "DELETE FROM deployment_aliases WHERE alias = :alias AND project_id = :project",
        soci::use(alias, "alias"), soci::use(project_id, "project");
}

std::optional<int64_t> alias_target(soci::session& session, const std::string& alias,
                                    int64_t project_id) {
    int64_t deployment_id = 0;
    session << "SELECT deployment_id FROM deployment_aliases WHERE alias = :alias AND "
               "project_id = :project",
        soci::use(alias, "alias"), soci::use(project_id, "project"), soci::into(deployment_id);
    return session.got_data() ? std::optional(deployment_id) : std::nullopt;
}

std::map<int64_t, std::vector<Alias>> aliases_of(soci::session& session,
                                                 const std::vector<int64_t>& deployment_ids) {
    std::map<int64_t, std::vector<Alias>> aliases;
    for_each_row_of_ids(
        session,
        "SELECT deployment_id, alias, type FROM deployment_aliases WHERE "
        "deployment_id IN (SELECT CAST(value AS BIGINT) FROM {{json_rows:ids}}) "
        "AND legacy = 0 ORDER BY alias",
        deployment_ids, [&](const soci::row& row) {
            RowReader r(row);
            aliases[r.int64("deployment_id")].push_back({r.text("alias"), r.text("type")});
        });
    return aliases;
}

}  // namespace loupe::deployments
