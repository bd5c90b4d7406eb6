#pragma once
// The `merged_pull_requests` rows: pull requests of a project its git provider said were
// merged.

#include <soci/soci.h>

#include <cstdint>

namespace loupe::builds {

/// Inserts the row; false when the pull request was already recorded as merged.
bool insert_merged_pull_request(soci::session& session, int64_t project_id, int64_t pr_number,
                                int64_t merged_at);

/// The SQL condition (on a `builds` row) "its pull request was merged".
inline constexpr const char* merged_pull_request_condition =
    "pr_number IS NOT NULL AND EXISTS (SELECT 1 FROM merged_pull_requests m WHERE m.project_id "
    "= builds.project_id AND m.pr_number = builds.pr_number)";

/// Whether the project's pull request `pr_number` was merged.
bool is_merged_pull_request(soci::session& session, int64_t project_id, int64_t pr_number);

}  // namespace loupe::builds
