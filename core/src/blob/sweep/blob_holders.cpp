#include "blob/sweep/blob_holders.hpp"

#include <soci/soci.h>

#include <map>

#include "loupe/db/row_reader.hpp"
#include "loupe/json.hpp"

namespace loupe {

void record_blob_holders(soci::session& session,
                         const std::vector<std::pair<std::string, bool>>& plugins) {
    const int64_t now = now_ms();
    for (const auto& [plugin, holds] : plugins) {
        const int flag = holds ? 1 : 0;
        session << "INSERT INTO blob_holders (plugin, holds_blob_keys, recorded_at) VALUES (:p, "
                   ":h, :t) ON CONFLICT (plugin) DO UPDATE SET holds_blob_keys = "
                   "excluded.holds_blob_keys, recorded_at = excluded.recorded_at",
            soci::use(plugin), soci::use(flag), soci::use(now);
    }
}

std::vector<std::string> unseen_blob_holders(soci::session& session,
                                             const std::set<std::string>& loaded) {
    std::map<std::string, int> recorded;
    {
        soci::rowset<soci::row> rows =
            (session.prepare << "SELECT plugin, holds_blob_keys FROM blob_holders");
        for (const auto& row : rows) {
            const RowReader reader(row);
            recorded[reader.text("plugin")] = reader.flag("holds_blob_keys") ? 1 : 0;
        }
    }
    std::vector<std::string> unseen;
    soci::rowset<std::string> plugins =
        (session.prepare << "SELECT DISTINCT plugin FROM schema_migrations WHERE plugin <> "
                            "'core' ORDER BY plugin");
    for (const auto& plugin : plugins) {
        if (loaded.contains(plugin)) {
            continue;
        }
        const auto it = recorded.find(plugin);
        if (it == recorded.end() || it->second != 0) {
            unseen.push_back(plugin);
        }
    }
    return unseen;
}

}  // namespace loupe
