#include "store/project_blobs.hpp"

#include <soci/soci.h>

#include "loupe/db/dialect.hpp"
#include "loupe/db/row_reader.hpp"
#include "loupe/json.hpp"

namespace loupe::builds {
namespace {

std::string key_rows(const std::vector<std::string>& keys) {
    Json rows = Json::array();
    for (const auto& key : keys) {
        rows.push_back({{"key", key}});
    }
    return rows.dump();
}

}  // namespace

std::set<std::string> held_keys(soci::session& session, int64_t project_id,
                                const std::vector<std::string>& keys) {
    std::set<std::string> held;
    if (keys.empty()) {
        return held;
    }
    const std::string rows = key_rows(keys);
    soci::rowset<std::string> found =
        (session.prepare << render_sql(dialect_of(session),
                                       "SELECT blob_key FROM project_blobs WHERE project_id = "
                                       ":project AND held = 1 AND blob_key IN (SELECT value ->> "
                                       "'key' FROM {{json_rows:keys}})"),
         soci::use(project_id, "project"), soci::use(rows, "keys"));
    for (const auto& key : found) {
        held.insert(key);
    }
    return held;
}

void hold_key(soci::session& session, int64_t project_id, const std::string& key, int64_t size) {
    const int64_t none = 0;
    session << "INSERT INTO project_blobs (project_id, blob_key, size, claimed_at, held) VALUES "
               "(:project, :key, :size, :claimed, 1) ON CONFLICT (project_id, blob_key) DO UPDATE "
               "SET held = 1, size = excluded.size",
        soci::use(project_id, "project"), soci::use(key, "key"), soci::use(size, "size"),
        soci::use(none, "claimed");
}

int64_t held_bytes(soci::session& session, int64_t project_id) {
    long long bytes = 0;
    session << "SELECT CAST(COALESCE(SUM(size), 0) AS BIGINT) FROM project_blobs "
               "WHERE project_id = :project AND held = 1",
        soci::use(project_id, "project"), soci::into(bytes);
    return bytes;
}

void release_unreferenced(soci::session& session, int64_t project_id,
                          const std::vector<std::string>& keys) {
    if (keys.empty()) {
        return;
    }
    const std::string rows = key_rows(keys);
    session << render_sql(dialect_of(session),
                          "DELETE FROM project_blobs WHERE project_id = :project AND blob_key IN "
                          "(SELECT value ->> 'key' FROM {{json_rows:keys}}) AND NOT EXISTS "
                          "(SELECT 1 FROM screenshots s JOIN builds b ON b.id = s.build_id WHERE "
                          "b.project_id = :owner AND (s.blob_key = project_blobs.blob_key OR "
                          "s.pw_trace_key = project_blobs.blob_key))"),
        soci::use(project_id, "project"), soci::use(rows, "keys"), soci::use(project_id, "owner");
}

}  // namespace loupe::builds
