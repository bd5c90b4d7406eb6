#pragma once
// Reading jobs and retrying failed ones, for `loupe jobs`.

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "loupe/db/database.hpp"
#include "loupe/export.hpp"
#include "loupe/json.hpp"

namespace loupe {

struct JobRow {
    int64_t id = 0;
    std::string kind;
    Json payload;
    std::string status;  ///< queued | running | done | failed
    int attempts = 0;
    int max_attempts = 0;
    int64_t run_at = 0;
    std::optional<int64_t> lease_until;
    std::optional<std::string> locked_by;  ///< the instance of the last claim
    std::optional<std::string> last_error;
    int64_t created_at = 0;
    int64_t updated_at = 0;
};

struct JobFilter {
    std::optional<std::string> status;  ///< nullopt: every status but done
    std::optional<std::string> kind;
    int64_t limit = 100;
};

/// A refused `loupe jobs` operation (unknown job, job not failed): exit status 1.
class LOUPE_API JobCommandError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
    ~JobCommandError() override;  // key function: one typeinfo, in libloupe-core
};

/// Newest first.
LOUPE_API std::vector<JobRow> list_jobs(Database& database, const JobFilter& filter);

/// The job with that id, if any.
LOUPE_API std::optional<JobRow> find_job(Database& database, int64_t id);

/// Queues a failed job again: attempts reset to 0, run_at now. Returns the updated row;
/// throws JobCommandError when the job does not exist or is not failed.
LOUPE_API JobRow retry_failed_job(Database& database, int64_t id);

}  // namespace loupe
