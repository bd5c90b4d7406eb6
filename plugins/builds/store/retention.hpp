#pragma once
// What retention reads and deletes of the builds plugin's tables: the builds of a project with
// the links that keep old builds alive (their baseline), which builds others still use, and the
// deletion of builds with their screenshots, diffs and shards.

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "loupe/db/dialect.hpp"

namespace soci {
class session;
}

namespace loupe::builds {

struct BuildLink {
    int64_t id = 0;
    std::string name;
    std::string branch;
    int64_t created_at = 0;
    std::optional<int64_t> base_build_id;
};

/// The projects that have builds, by id.
std::vector<int64_t> projects_with_builds(soci::session& session);
/// Every build of the project, by id.
std::vector<BuildLink> project_build_links(soci::session& session, int64_t project_id);
/// Locks the builds' rows until the transaction ends (on SQLite the writer's lock does it).
void lock_builds(soci::session& session, Dialect dialect, const std::vector<int64_t>& ids);
/// (used, user) pairs: a build of `ids` that another build uses, as its baseline or through the
/// base screenshots of its diffs.
std::vector<std::pair<int64_t, int64_t>> uses_of_builds(soci::session& session,
                                                        const std::vector<int64_t>& ids);
/// Every diff of the builds.
std::vector<int64_t> diff_ids_of_builds(soci::session& session, const std::vector<int64_t>& ids);

/// Every blob key the builds' rows hold (screenshots, traces, diff masks), and the masks of
/// other builds' diffs against their screenshots: what delete_builds() releases.
std::vector<std::string> blob_keys_of_builds(soci::session& session,
                                             const std::vector<int64_t>& ids);

struct DeletedBuildRows {
    int64_t builds = 0;
    int64_t screenshots = 0;
    int64_t diffs = 0;
    int64_t shards = 0;
    int64_t other_diffs = 0;  ///< diffs of other (kept) builds against these builds' screenshots
};

/// Deletes the builds and their diffs, screenshots and shards, and the diffs of other builds
/// that compare with their screenshots.
DeletedBuildRows delete_builds(soci::session& session, const std::vector<int64_t>& ids);

}  // namespace loupe::builds
