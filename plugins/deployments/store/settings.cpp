#include "store/settings.hpp"

#include <soci/soci.h>

#include "loupe/db/row_reader.hpp"
#include "loupe/json.hpp"

namespace loupe::deployments {

ProjectSettings load_settings(soci::session& session, int64_t project_id) {
    soci::row row;
    session << "SELECT enabled, production_branch_glob, auth FROM deployment_settings "
               "WHERE project_id = :project",
        soci::use(project_id, "project"), soci::into(row);
    ProjectSettings settings;
    if (session.got_data()) {
        RowReader r(row);
        settings.enabled = r.flag("enabled");
        settings.production_branch_glob = r.optional_text("production_branch_glob");
        settings.auth = r.text("auth");
    }
    return settings;
}

void save_settings(soci::session& session, int64_t project_id, const ProjectSettings& settings) {
    const int enabled = settings.enabled ? 1 : 0;
    std::string glob = settings.production_branch_glob.value_or("");
    soci::indicator glob_indicator = settings.production_branch_glob ? soci::i_ok : soci::i_null;
    const int64_t now = now_ms();
    session << "INSERT INTO deployment_settings (project_id, enabled, production_branch_glob, "
               "auth, updated_at) VALUES (:project, :enabled, :glob, :auth, :now) "
               "ON CONFLICT (project_id) DO UPDATE SET enabled = excluded.enabled, "
               "production_branch_glob = excluded.production_branch_glob, auth = excluded.auth, "
               "updated_at = excluded.updated_at",
        soci::use(project_id, "project"), soci::use(enabled, "enabled"),
        soci::use(glob, glob_indicator, "glob"), soci::use(settings.auth, "auth"),
        soci::use(now, "now");
}

}  // namespace loupe::deployments
