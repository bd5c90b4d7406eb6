#include "store/settings.hpp"

#include <soci/soci.h>

#include "loupe/db/row_reader.hpp"
#include "loupe/db/rows_for_ids.hpp"

namespace loupe::builds {

BuildSettings build_settings_of(soci::session& session, int64_t project_id) {
    return build_settings_of(session, std::vector<int64_t>{project_id}).at(project_id);
}

std::map<int64_t, BuildSettings> build_settings_of(soci::session& session,
                                                   const std::vector<int64_t>& project_ids) {
    std::map<int64_t, BuildSettings> settings;
    for (auto id : project_ids) {
        settings.emplace(id, BuildSettings{});
    }
    for_each_row_of_ids(
        session,
        "SELECT project_id, auto_approved_branch_glob, ignore_enabled, "
        "auto_ignore_changes, retention_days, max_stored_bytes, max_screenshots_per_build FROM "
        "build_settings WHERE project_id IN (SELECT "
        "CAST(value AS BIGINT) FROM {{json_rows:ids}})",
        project_ids, [&](const soci::row& row) {
            RowReader r(row);
            auto& s = settings[r.int64("project_id")];
            s.auto_approved_branch_glob = r.optional_text("auto_approved_branch_glob");
            s.ignore_enabled = r.flag("ignore_enabled");
            s.auto_ignore_changes = r.optional_int("auto_ignore_changes");
            s.retention_days = r.optional_int("retention_days");
            s.max_stored_bytes = r.optional_int("max_stored_bytes");
            s.max_screenshots_per_build = r.optional_int("max_screenshots_per_build");
        });
    return settings;
}

// Optional values travel as '' / -1 and become NULL through NULLIF (a glob is never empty and
// a threshold or a number of days is never negative).
void save_build_settings(soci::session& session, int64_t project_id,
                         const BuildSettings& settings) {
    const std::string glob = settings.auto_approved_branch_glob.value_or("");
    const int ignore = settings.ignore_enabled ? 1 : 0;
    const int64_t changes = settings.auto_ignore_changes.value_or(-1);
    const int64_t retention = settings.retention_days.value_or(-1);
    const int64_t bytes = settings.max_stored_bytes.value_or(-1);
    const int64_t screenshots = settings.max_screenshots_per_build.value_or(-1);
    session << "INSERT INTO build_settings (project_id, auto_approved_branch_glob, "
               "ignore_enabled, auto_ignore_changes, retention_days, max_stored_bytes, "
               "max_screenshots_per_build) VALUES (:p, NULLIF(:g, ''), :i, NULLIF(:c, CAST(-1 AS "
               "BIGINT)), NULLIF(:r, CAST(-1 AS BIGINT)), NULLIF(:b, CAST(-1 AS BIGINT)), "
               "NULLIF(:s, CAST(-1 AS BIGINT))) ON CONFLICT (project_id) DO UPDATE SET "
               "auto_approved_branch_glob = excluded.auto_approved_branch_glob, ignore_enabled = "
               "excluded.ignore_enabled, auto_ignore_changes = excluded.auto_ignore_changes, "
               "retention_days = excluded.retention_days, max_stored_bytes = "
               "excluded.max_stored_bytes, max_screenshots_per_build = "
               "excluded.max_screenshots_per_build",
        soci::use(project_id), soci::use(glob), soci::use(ignore), soci::use(changes),
        soci::use(retention), soci::use(bytes), soci::use(screenshots);
}

}  // namespace loupe::builds
