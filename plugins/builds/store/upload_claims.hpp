#pragma once
// Upload claims: when POST /builds hands a build upload targets for keys its project does not
// hold, it records that claim (one row per answer, its keys as a JSON array). Bytes written to
// the store while the claim stands prove that the project has them (uploads/upload_policy.hpp),
// so another project's older copy of the same file is no proof.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace soci {
class session;
}

namespace loupe::builds {

/// How long a claim stands: the life of the upload targets handed out with it.
inline constexpr int64_t claim_window_ms = int64_t{30} * 60 * 1000;

/// Records that `build_id` of `project_id` was handed upload targets for `keys` at `now_ms`,
/// and deletes the project's claims that ended more than `grace_ms` ago (none can prove an
/// upload any more).
void record_claim(soci::session& session, int64_t project_id, int64_t build_id,
                  const std::vector<std::string>& keys, int64_t now_ms, int64_t grace_ms);

/// When the build was handed a target for each of `keys`, oldest first (a retried or parallel
/// POST /builds claims again; each claim stands on its own). Keys never claimed are absent.
std::map<std::string, std::vector<int64_t>> claims_of_build(soci::session& session,
                                                            int64_t build_id,
                                                            const std::vector<std::string>& keys);

}  // namespace loupe::builds
