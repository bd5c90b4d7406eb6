#pragma once
// Which stored blobs each project holds. Blobs are shared by content across projects, so a
// build may name only keys its own project holds: ones it uploaded (an upload written after
// the build was handed the key's upload target: store/upload_claims.hpp) or that its builds
// referenced before holdings were recorded. A key the project does not hold gets an upload
// target even when the store has it, so the answer of POST /builds tells nothing about other
// projects' files.

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace soci {
class session;
}

namespace loupe::builds {

/// The keys among `keys` that the project holds.
std::set<std::string> held_keys(soci::session& session, int64_t project_id,
                                const std::vector<std::string>& keys);

/// Marks a key held by the project, with its size.
void hold_key(soci::session& session, int64_t project_id, const std::string& key, int64_t size);

/// The bytes of the blobs the project holds (blobs held from before sizes were recorded count
/// as 0).
int64_t held_bytes(soci::session& session, int64_t project_id);

/// Forgets the holdings among `keys` that no remaining screenshot of the project references
/// (after its builds were deleted): naming them again needs a new upload.
void release_unreferenced(soci::session& session, int64_t project_id,
                          const std::vector<std::string>& keys);

}  // namespace loupe::builds
