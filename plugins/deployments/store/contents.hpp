#pragma once
// The registry of file contents known to be stored in the blob store (shared by every project:
// a hash registered once is never asked for again), with each content's gzip variant.

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace soci {
class session;
}

namespace loupe::deployments {

/// The subset of `hashes` that is registered.
std::set<std::string> registered_hashes(soci::session& session,
                                        const std::vector<std::string>& hashes);
/// Registers contents verified stored, with the size the store reported (idempotent).
void register_contents(soci::session& session,
                       const std::vector<std::pair<std::string, int64_t>>& hashes_and_sizes);

/// The bytes of a deployment's files whose contents are registered (a content at two paths
/// counts twice), with the sizes the store reported.
int64_t stored_bytes(soci::session& session, int64_t deployment_id);

/// A registered content that still needs its gzip variant looked at.
struct PendingCompression {
    std::string hash;
    std::string content_type;
    int64_t size = 0;
};
/// The deployment's registered contents not yet checked for a gzip variant (one per hash).
std::vector<PendingCompression> contents_to_compress(soci::session& session, int64_t deployment_id);
/// Records the outcome for a content: its gzip variant, or none (not worth it).
void record_gzip_variant(soci::session& session, const std::string& hash,
                         const std::optional<std::string>& gzip_hash, int64_t gzip_size);

}  // namespace loupe::deployments
