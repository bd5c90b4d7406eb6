#include "store/upload_claims.hpp"

#include <soci/soci.h>

#include <set>

#include "loupe/db/row_reader.hpp"
#include "loupe/json.hpp"

namespace loupe::builds {

void record_claim(soci::session& session, int64_t project_id, int64_t build_id,
                  const std::vector<std::string>& keys, int64_t now_ms, int64_t grace_ms) {
    if (keys.empty()) {
        return;
    }
    const int64_t ended_before = now_ms - claim_window_ms - grace_ms;
    session << "DELETE FROM upload_claims WHERE project_id = :project AND claimed_at < :ended",
        soci::use(project_id, "project"), soci::use(ended_before, "ended");
    const std::string blob_keys = Json(keys).dump();
    session << "INSERT INTO upload_claims (project_id, build_id, claimed_at, blob_keys) VALUES "
               "(:project, :build, :claimed_at, :keys)",
        soci::use(project_id, "project"), soci::use(build_id, "build"),
        soci::use(now_ms, "claimed_at"), soci::use(blob_keys, "keys");
}

std::map<std::string, std::vector<int64_t>> claims_of_build(soci::session& session,
                                                            int64_t build_id,
                                                            const std::vector<std::string>& keys) {
    std::map<std::string, std::vector<int64_t>> claims;
    if (keys.empty()) {
        return claims;
    }
    const std::set<std::string> wanted(keys.begin(), keys.end());
    soci::rowset<soci::row> rows =
        (session.prepare << "SELECT claimed_at, blob_keys FROM upload_claims WHERE build_id = "
                            ":build ORDER BY claimed_at",
         soci::use(build_id, "build"));
    for (const auto& row : rows) {
        const RowReader read(row);
        const int64_t claimed_at = read.int64("claimed_at");
        const Json claimed = Json::parse(read.text("blob_keys"), nullptr, false);
        if (!claimed.is_array()) {
            continue;  // never written so: a damaged row proves nothing
        }
        for (const auto& key : claimed) {
            if (key.is_string() && wanted.contains(key.get_ref<const std::string&>())) {
                claims[key.get<std::string>()].push_back(claimed_at);
            }
        }
    }
    return claims;
}

}  // namespace loupe::builds
