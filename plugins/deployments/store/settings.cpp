#include "store/settings.hpp"

#include <soci/soci.h>

#include "loupe/db/row_reader.hpp"
#include "loupe/db/rows_for_ids.hpp"
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

std::map<int64_t, ProjectSettings> load_settings(soci::session& session,
                                                 const std::vector<int64_t>& project_ids) {
    std::map<int64_t, ProjectSettings> settings;
    for (auto id : project_ids) {
        settings.emplace(id, ProjectSettings{});
    }
    for_each_row_of_ids(session,
                        "SELECT project_id, enabled, production_branch_glob, auth FROM "
                        "deployment_settings WHERE project_id IN (SELECT CAST(value AS BIGINT) "
                        "FROM {{json_rows:ids}})",
                        project_ids, [&](const soci::row& row) {
                            RowReader r(row);
                            auto& s = settings[r.int64("project_id")];
                            s.enabled = r.flag("enabled");
                            s.production_branch_glob = r.optional_text("production_branch_glob");
                            s.auth = r.text("auth");
                        });
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
