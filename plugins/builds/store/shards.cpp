#include "store/shards.hpp"

#include <soci/soci.h>

#include "loupe/db/row_reader.hpp"

namespace loupe::builds {

std::optional<bool> shard_completed(soci::session& session, int64_t build_id,
                                    const std::string& key) {
    int completed = 0;
    soci::indicator found = soci::i_null;
    session << "SELECT completed FROM build_shards WHERE build_id = :b AND shard_key = :k",
        soci::use(build_id), soci::use(key), soci::into(completed, found);
    if (!session.got_data()) {
        return std::nullopt;
    }
    return completed != 0;
}

void save_shard(soci::session& session, int64_t build_id, const Shard& shard, bool exists) {
    const int64_t now = now_ms();
    const int completed = shard.completed ? 1 : 0;
    const std::string metadata = shard.metadata.is_null() ? "" : shard.metadata.dump();
    const int64_t index = shard.index.value_or(0);
    if (!exists) {
        session << "INSERT INTO build_shards (build_id, shard_key, shard_index, completed, "
                   "metadata, created_at) VALUES (:b, :k, NULLIF(:i, CAST(0 AS BIGINT)), :c, "
                   "NULLIF(:m, ''), :t)",
            soci::use(build_id), soci::use(shard.key), soci::use(index), soci::use(completed),
            soci::use(metadata), soci::use(now);
    } else {
        session << "UPDATE build_shards SET completed = :c, metadata = NULLIF(:m, ''), "
                   "created_at = :t WHERE build_id = :b AND shard_key = :k",
            soci::use(completed), soci::use(metadata), soci::use(now), soci::use(build_id),
            soci::use(shard.key);
    }
}

std::vector<Json> completed_shard_metadata(soci::session& session, int64_t build_id) {
    std::vector<Json> reports;
    soci::rowset<soci::row> rows =
        (session.prepare << "SELECT metadata FROM build_shards WHERE build_id = :b AND completed "
                            "= 1 ORDER BY created_at, shard_key",
         soci::use(build_id));
    for (const auto& row : rows) {
        if (auto metadata = RowReader(row).json("metadata"); !metadata.is_null()) {
            reports.push_back(std::move(metadata));
        }
    }
    return reports;
}

}  // namespace loupe::builds
