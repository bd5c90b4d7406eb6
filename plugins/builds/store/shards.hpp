#pragma once
// The shards of a parallel build: one row per shard (an index, or one request), completed when
// the shard's final request arrived, with its test report.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "loupe/json.hpp"

namespace soci {
class session;
}

namespace loupe::builds {

struct Shard {
    std::string key;  ///< "index:<n>" or "request:<id>"
    std::optional<int64_t> index;
    bool completed = false;
    Json metadata;
};

/// Whether the shard exists and has completed; nullopt when it was never seen.
std::optional<bool> shard_completed(soci::session& session, int64_t build_id,
                                    const std::string& key);
/// Inserts the shard, or updates it when it exists (a later request of the same shard).
void save_shard(soci::session& session, int64_t build_id, const Shard& shard, bool exists);
/// The metadata of the completed shards, in completion order (those without metadata skipped).
std::vector<Json> completed_shard_metadata(soci::session& session, int64_t build_id);

}  // namespace loupe::builds
