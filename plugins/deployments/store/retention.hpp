#pragma once
// Deleting old deployments and finding which of their contents nothing uses any more.

#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace soci {
class session;
}

namespace loupe::deployments {

/// Deployments created before `cutoff_ms` (any status); with `keep_aliased`, not those an
/// alias points at.
std::vector<int64_t> deployments_created_before(soci::session& session, int64_t cutoff_ms,
                                                bool keep_aliased);

/// Deletes the deployments with their files and aliases. Returns the distinct hashes their
/// files used, and fills `file_rows` with how many file rows went.
std::vector<std::string> delete_deployments(soci::session& session, const std::vector<int64_t>& ids,
                                            int64_t& file_rows);

/// Removes the registry rows of the `hashes` no remaining deployment file uses; returns those
/// hashes and their gzip variants (the blobs that may now be unreferenced).
std::vector<std::string> unregister_unused_contents(soci::session& session,
                                                    const std::vector<std::string>& hashes);

/// The subset of `keys` a deployment file or a registered gzip variant references (this
/// plugin's blob reference finder).
std::set<std::string> referenced_by_deployments(soci::session& session,
                                                const std::vector<std::string>& keys);

}  // namespace loupe::deployments
