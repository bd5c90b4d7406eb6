#pragma once
// A build row: one CI run's screenshots for a commit (Argos keeps the screenshots in a
// separate "bucket"; Loupe keeps the bucket's fields on the build itself).

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "loupe/builds/build_states.hpp"
#include "loupe/db/dialect.hpp"
#include "loupe/db/query.hpp"
#include "loupe/json.hpp"

namespace soci {
class session;
}

namespace loupe::builds {

/// Where processing of a build (or of one diff) is: pending (a build waiting for screenshots or
/// queued; a diff to compute) | progress | complete | error | aborted. Diffs are pending,
/// complete or error.
enum class ProcessingState { pending, progress, complete, error, aborted };

template <>
struct StateNames<ProcessingState> {
    static constexpr std::array<std::pair<ProcessingState, std::string_view>, 5> names{{
        {ProcessingState::pending, "pending"},
        {ProcessingState::progress, "progress"},
        {ProcessingState::complete, "complete"},
        {ProcessingState::error, "error"},
        {ProcessingState::aborted, "aborted"},
    }};
};

struct Build {
    int64_t id = 0;
    int64_t project_id = 0;
    int64_t number = 0;
    std::string name = "default";
    std::string commit;
    std::string branch;
    std::optional<int64_t> pr_number;
    std::optional<std::string> pr_head_commit;
    std::optional<std::string> reference_commit;
    std::optional<std::string> reference_branch;
    Json parent_commits;  ///< array of SHA-1 or null
    BuildMode mode = BuildMode::ci;
    std::optional<std::string> ci_provider;
    std::optional<std::string> argos_sdk;
    std::optional<std::string> run_id;
    std::optional<int64_t> run_attempt;
    std::optional<BuildType> type;
    ProcessingState job_status = ProcessingState::pending;
    bool parallel = false;
    std::optional<std::string> parallel_nonce;
    int64_t batch_count = 0;
    std::optional<int64_t> total_batch;
    bool partial = false;
    bool merge_queue = false;
    Json merge_queue_pr_numbers;
    bool subset = false;
    bool complete = false;  ///< every screenshot received (finalized)
    bool valid = true;      ///< no test report, or a passed one
    int64_t screenshot_count = 0;
    Json metadata;  ///< {"testReport": {...}} or null
    std::optional<Conclusion> conclusion;
    Json stats;
    std::optional<int64_t> concluded_at;
    std::optional<int64_t> base_build_id;
    std::optional<std::string> baseline_reason;
    /// How the baseline was approved: reference | orphan | review | merged-pull-request, or
    /// none when the rule that picked it asks for no approval.
    std::optional<std::string> baseline_approval;
    int64_t created_at = 0;
    int64_t updated_at = 0;
    std::optional<int64_t> finalized_at;
    std::optional<ReviewState> review_state;  ///< as the reviews plugin set it
    Json review_details;                      ///< what the review state rests on, or null
};

/// Column list for SELECTs that read_build() understands.
extern const char* const build_columns;

std::optional<Build> find_build(soci::session& session, Dialect dialect, int64_t id,
                                bool for_update = false);
std::optional<Build> find_build_by_number(soci::session& session, int64_t project_id,
                                          int64_t number);
/// The parallel build of (project, nonce, name), locked for update.
std::optional<Build> find_parallel_build(soci::session& session, Dialect dialect,
                                         int64_t project_id, const std::string& nonce,
                                         const std::string& name);

/// Builds matching `query`, in the order `suffix` (ORDER BY/LIMIT, may hold `?`) gives.
std::vector<Build> find_builds(soci::session& session, const Query& query,
                               const std::string& suffix,
                               std::vector<QueryValue> suffix_values = {});
/// Builds by id, in one statement (missing ids are absent), keyed by id.
std::map<int64_t, Build> find_builds_by_id(soci::session& session, const std::vector<int64_t>& ids);
/// The ids of the project's parallel builds of `nonce` waiting for POST /builds/finalize
/// (shards sent with `parallelTotal: -1`), oldest first.
std::vector<int64_t> builds_awaiting_finalize(soci::session& session, int64_t project_id,
                                              const std::string& nonce);

/// Serializes build creation per project (locks the project's counter row) so parallel shards
/// and number allocation never race. Call first in the creating transaction.
void lock_build_counter(soci::session& session, Dialect dialect, int64_t project_id);
/// The next build number of the project (no gaps, no duplicates).
int64_t allocate_build_number(soci::session& session, int64_t project_id);

/// Inserts `build` (number already set); fills its id.
void insert_build(soci::session& session, Build& build);
/// Marks a build as sent by a CI run of a fork: a baseline only once a review accepted it.
void mark_untrusted_head(soci::session& session, int64_t build_id);
/// Writes the mutable state columns back (not the review state).
void update_build_state(soci::session& session, const Build& build);
/// Writes the review state columns.
void update_review_state(soci::session& session, int64_t build_id,
                         const std::optional<ReviewState>& state, const Json& details);

}  // namespace loupe::builds
