#pragma once
// Builds counted per project and per time bucket by the database, for account analytics.

#include <cstdint>
#include <string>
#include <vector>

#include "loupe/builds/build_analytics.hpp"
#include "loupe/db/dialect.hpp"

namespace soci {
class session;
}

namespace loupe::builds {

/// One row per non-empty (bucket, project) among the builds of `project_ids` created in
/// [from_ms, to_ms], ordered by bucket then project. The bucket of a build is computed in SQL
/// from its `created_at` (UTC day, ISO week starting Monday, calendar month).
std::vector<BuildActivityRow> build_activity(soci::session& session,
                                             const std::vector<int64_t>& project_ids,
                                             int64_t from_ms, int64_t to_ms, ActivityBucket bucket);

/// The projects of the account having builds created in [from_ms, to_ms], ascending.
std::vector<int64_t> account_projects_with_builds(soci::session& session, int64_t account_id,
                                                  int64_t from_ms, int64_t to_ms);

/// The SQL expression of the bucket start (epoch ms) of the BIGINT epoch-ms column `column`.
std::string bucket_start_sql(Dialect dialect, ActivityBucket bucket, const std::string& column);

}  // namespace loupe::builds
