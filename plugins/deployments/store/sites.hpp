#pragma once
// What serving reads: a site name (a deployment's slug or an alias) resolved to its deployment,
// and the deployment's file table with each content's gzip variant.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace soci {
class session;
}

namespace loupe::deployments {

struct SiteTarget {
    int64_t deployment_id = 0;
    int64_t project_id = 0;
    std::string environment;  ///< preview | production
    std::string alias_type;   ///< "" when reached by slug; branch | production for an alias
    bool spa = false;
    bool compressed = false;
    /// Reached through a private link's key: served whatever the project's access setting,
    /// until `link_expires_at` (epoch ms).
    bool via_link = false;
    int64_t link_expires_at = 0;
};

/// The ready deployment a name reaches: a slug first, then an alias; nullopt otherwise.
std::optional<SiteTarget> find_site(soci::session& session, const std::string& name);

struct SiteFileRow {
    std::string path;
    std::string hash;
    std::string content_type;
    int64_t size = 0;
    std::optional<std::string> gzip_hash;
    int64_t gzip_size = 0;
};

std::vector<SiteFileRow> site_files(soci::session& session, int64_t deployment_id);

}  // namespace loupe::deployments
