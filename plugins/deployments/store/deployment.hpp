#pragma once
// Deployment rows: one `argos deploy` of a static site, pending until finalized, then ready.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "loupe/db/dialect.hpp"

namespace soci {
class session;
}

namespace loupe::deployments {

struct Deployment {
    int64_t id = 0;
    int64_t project_id = 0;
    std::string slug;
    std::string status = "pending";  ///< pending | ready | error
    std::string environment;         ///< preview | production
    std::string branch;
    std::string commit;
    std::optional<int64_t> pr_number;
    bool spa = false;  ///< unknown extension-less paths fall back to index.html
    int64_t file_count = 0;
    bool compressed = false;  ///< gzip variants of its compressible files were made
    int64_t created_at = 0;
    std::optional<int64_t> finalized_at;
};

/// One file of a deployment as the client declared it.
struct DeploymentFile {
    std::string path;
    std::string hash;  ///< lower-case SHA-256
    int64_t size = 0;
    std::string content_type;
};

std::optional<Deployment> find_deployment(soci::session& session, Dialect dialect, int64_t id,
                                          bool for_update = false);
/// True when a deployment has this slug or an alias has this name.
bool site_name_taken(soci::session& session, const std::string& name);

/// Inserts the deployment (id filled) and all its files in one statement.
void insert_deployment(soci::session& session, Deployment& deployment,
                       const std::vector<DeploymentFile>& files);
void mark_ready(soci::session& session, int64_t id, int64_t at_ms);
void mark_compressed(soci::session& session, int64_t id);

/// Which of a project's deployments a list shows; unset fields match every deployment.
struct DeploymentFilter {
    int64_t project_id = 0;
    std::optional<std::string> branch;
    std::optional<std::string> environment;
};

int64_t count_deployments(soci::session& session, const DeploymentFilter& filter);
/// The deployments the filter matches, newest first, `limit` of them after `offset`.
std::vector<Deployment> list_deployments(soci::session& session, const DeploymentFilter& filter,
                                         int64_t limit, int64_t offset);

/// The files of a deployment whose content is not yet registered as stored (any order).
std::vector<DeploymentFile> unregistered_files(soci::session& session, int64_t deployment_id);

}  // namespace loupe::deployments
