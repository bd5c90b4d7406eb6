#include "store/aliases.hpp"

#include <soci/soci.h>

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
               "AND deployment_aliases.deployment_id < excluded.deployment_id",
        soci::use(alias, "alias"), soci::use(project_id, "project"),
        soci::use(deployment_id, "deployment"), soci::use(type, "type"), soci::use(now, "now");
}

}  // namespace loupe::deployments
