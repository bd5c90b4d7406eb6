#pragma once
// What a project may upload: only files it holds may be named by its builds (a file another
// project uploaded must be uploaded again: store/project_blobs.hpp), within its quotas on the
// bytes it holds and the screenshots of one build, and from a CI run only what that run
// vouches for.

#include <cstdint>
#include <string>
#include <vector>

#include "loupe/auth/principal.hpp"
#include "loupe/blob/blob_store.hpp"
#include "loupe/config/config_view.hpp"
#include "loupe/db/database.hpp"
#include "loupe/json.hpp"
#include "store/build.hpp"
#include "store/settings.hpp"

namespace loupe::builds {

/// The server's defaults (plugins.builds.*), a project's own settings override the quotas.
struct UploadPolicy {
    int64_t max_stored_bytes = 0;           ///< 0: no limit
    int64_t max_screenshots_per_build = 0;  ///< 0: no limit
    /// How much earlier than the project's claim an upload may be dated and still prove it
    /// (clocks of instances and of an object store differ; S3 dates have whole seconds).
    int64_t clock_skew_ms = 10'000;

    /// Reads and checks the settings; throws std::runtime_error naming a bad one.
    static UploadPolicy from_config(const ConfigView& config);
};

struct ProjectQuotas {
    int64_t max_stored_bytes = 0;           ///< 0: no limit
    int64_t max_screenshots_per_build = 0;  ///< 0: no limit
};

ProjectQuotas quotas_of(const BuildSettings& settings, const UploadPolicy& policy);

/// 413 when a build would hold more than the project's screenshots per build.
void check_screenshot_quota(const ProjectQuotas& quotas, int64_t screenshots);

/// A file a build names: its key and the content type its upload must declare ("" for the
/// legacy form, where any type may be PUT).
struct Upload {
    std::string key;
    std::string content_type;
};

/// Upload targets for the `uploads` the project does not hold, or that the store lost; the
/// build's claim on them is recorded (in its own transaction) so that the upload proves it.
Json upload_targets(Database& database, BlobStore& blobs, int64_t project_id, int64_t build_id,
                    const std::vector<Upload>& uploads, bool secure_form, int64_t clock_skew_ms);

/// Makes the project hold every one of `keys` before build `build_id` references them: a key
/// not held must have been written to the store while one of that build's claims on it stood
/// (else 400, upload it again), and holding it must keep the project within its stored bytes
/// (else 413).
void require_held(soci::session& session, BlobStore& blobs, int64_t project_id, int64_t build_id,
                  const std::vector<std::string>& keys, const ProjectQuotas& quotas,
                  int64_t clock_skew_ms);

/// The refusals of a build a CI-run token does not vouch for: another commit or branch (401, as
/// Argos words a commit mismatch).
void check_bound_run(const Principal& principal, const Build& build);

/// A CI run of a fork may not send a build of a branch whose builds are approved by nature
/// (the auto-approve glob, by default the default branch): 403.
void check_untrusted_head(const Principal& principal, const Build& build,
                          const std::string& auto_approve_glob);

}  // namespace loupe::builds
