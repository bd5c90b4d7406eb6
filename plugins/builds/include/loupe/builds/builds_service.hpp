#pragma once
// What the builds plugin offers other plugins (reviews, analytics, the web page, git providers):
// a read model of builds and their diffs, the Build resource as the API renders it, the one
// write others need (a build's review state), and observers of a build's life.
//
// Look it up at install time: `auto& builds = host.services().require<BuildsService>();`
// OWNERSHIP: owned by the builds plugin for the process lifetime. THREADS: every method is
// thread-safe. Methods taking a soci::session& run in the caller's session (and transaction);
// write methods must be called inside a transaction (Database::transaction).
// VERSIONING: a new method or field is a minor change; changing a signature or a meaning bumps
// service_version.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "loupe/auth/identity.hpp"
#include "loupe/json.hpp"

namespace soci {
class session;
}

namespace loupe::builds {

/// What other plugins read of a build.
struct BuildSummary {
    int64_t id = 0;
    int64_t project_id = 0;
    int64_t number = 0;
    std::string name = "default";
    std::string commit;    ///< the build's commit
    std::string head_sha;  ///< the pull request's head commit if sent, else `commit`
    std::string branch;
    std::optional<int64_t> pr_number;
    std::string mode = "ci";                ///< ci | monitoring
    std::optional<std::string> type;        ///< reference | check | orphan | skipped
    std::optional<std::string> conclusion;  ///< no-changes | changes-detected
    /// pending | expired | progress | error | aborted | no-changes | changes-detected |
    /// accepted | rejected: the status clients see.
    std::string status;
    /// accepted | rejected, as the reviews plugin last recorded it (any conclusion).
    std::optional<std::string> review_state;
    Json stats;  ///< {"added", "removed", "unchanged", "changed", ...} or null
    bool subset = false;
    bool merge_queue = false;
    int64_t screenshot_count = 0;
    std::optional<int64_t> base_build_id;
    int64_t created_at = 0;  ///< epoch milliseconds
    std::optional<int64_t> concluded_at;
};

/// What other plugins read of a screenshot diff.
struct DiffSummary {
    int64_t id = 0;
    int64_t build_id = 0;
    std::string name;    ///< the head screenshot's name, else the base's
    std::string status;  ///< pending | removed | failure | added | changed | unchanged | ...
    std::optional<double> score;
    std::optional<std::string> fingerprint;
    std::optional<std::string> base_key;  ///< the base file's SHA-256
    std::optional<std::string> head_key;  ///< the head file's SHA-256
    std::optional<int64_t> test_id;
    bool needs_review = false;  ///< changed, added, or removed (except on subset builds)
};

/// A build's review decision as the reviews plugin records it: `state` accepted | rejected or
/// none, and `details` (a JSON object or null) shown as the Build resource's `review` field
/// (for example which earlier review an automatic approval inherits).
struct ReviewState {
    std::optional<std::string> state;
    Json details;
};

/// The time buckets activity is counted in, each starting at a UTC boundary: the day, the ISO
/// week (Monday) or the calendar month.
enum class ActivityBucket { day, week, month };

/// What happened in one project during one bucket: builds created in it, their screenshots
/// (the counts kept on the build rows), and how those builds concluded and were reviewed.
struct BuildActivityRow {
    int64_t bucket_start_ms = 0;  ///< the bucket's first instant, epoch milliseconds (UTC)
    int64_t project_id = 0;
    int64_t builds = 0;
    int64_t screenshots = 0;
    int64_t changes_detected = 0;  ///< builds concluded changes-detected
    int64_t no_changes = 0;        ///< builds concluded no-changes
    int64_t accepted = 0;          ///< changes-detected builds whose review state is accepted
    int64_t rejected = 0;          ///< changes-detected builds whose review state is rejected
};

/// A test and its flakiness metrics over a period, as the diff list renders `test`:
/// {"id", "name", "buildName", "metrics": {total, changes, uniqueChanges, stability,
/// consistency, flakiness}}.
struct FlakyTest {
    int64_t test_id = 0;
    double flakiness = 0;
    Json resource;
};

enum class BuildEvent {
    created,         ///< POST /builds made a new build
    finalized,       ///< every screenshot received; processing queued
    concluded,       ///< every diff computed: conclusion and stats written
    review_changed,  ///< record_review_state changed the review state
    failed,          ///< processing failed for good (status error)
};

/// Called inside the transaction that made the change, after the build row was written, with
/// the build as it now reads. Observers may write their own tables and enqueue jobs in
/// `session`; throwing rolls the whole change back. Register during install() only.
using BuildObserver =
    std::function<void(soci::session& session, BuildEvent event, const BuildSummary& build)>;

class BuildsService {
public:
    static constexpr const char* service_name = "builds.BuildsService";
    static constexpr int service_version = 1;

    virtual ~BuildsService() = default;

    /// A build of `project` by its number; nullopt when there is none.
    virtual std::optional<BuildSummary> find_build(soci::session& session, int64_t project_id,
                                                   int64_t number) = 0;
    virtual std::optional<BuildSummary> find_build_by_id(soci::session& session,
                                                         int64_t build_id) = 0;
    /// The build with its row locked until the caller's transaction ends: writers of a build's
    /// review state take it first, so concurrent reviews are recorded one after the other.
    virtual std::optional<BuildSummary> lock_build(soci::session& session, int64_t build_id) = 0;
    /// Several builds by id in one read (missing ids are absent), in the order given.
    virtual std::vector<BuildSummary> find_builds_by_id(soci::session& session,
                                                        const std::vector<int64_t>& ids) = 0;
    /// The project's builds of `name` on `branch`, newest first, at most `limit`.
    virtual std::vector<BuildSummary> branch_builds(soci::session& session, int64_t project_id,
                                                    const std::string& name,
                                                    const std::string& branch, int limit) = 0;

    /// Every diff of a build (any order).
    virtual std::vector<DiffSummary> build_diffs(soci::session& session, int64_t build_id) = 0;
    /// The diffs with these ids that belong to `build_id` (others are absent).
    virtual std::vector<DiffSummary> find_diffs(soci::session& session, int64_t build_id,
                                                const std::vector<int64_t>& diff_ids) = 0;

    /// The Build resource, exactly as GET .../builds/{number} answers it.
    virtual Json build_json(soci::session& session, const BuildSummary& build,
                            const Project& project) = 0;
    /// The builds' resources in one batch of reads.
    virtual std::vector<Json> builds_json(soci::session& session,
                                          const std::vector<BuildSummary>& builds,
                                          const Project& project) = 0;

    /// Records the review decision of a build (with its row locked) and notifies observers
    /// with review_changed when it changed. Call inside a transaction.
    virtual void record_review_state(soci::session& session, int64_t build_id,
                                     const ReviewState& review) = 0;

    /// Adds an observer of builds' lifecycle events (install() only).
    virtual void observe(BuildObserver observer) = 0;

    /// Builds of the given projects created in [from_ms, to_ms], counted per project and per
    /// bucket by the database (one row per non-empty (bucket, project), in bucket order).
    /// An empty `project_ids` gives no rows.
    virtual std::vector<BuildActivityRow> build_activity(soci::session& session,
                                                         const std::vector<int64_t>& project_ids,
                                                         int64_t from_ms, int64_t to_ms,
                                                         ActivityBucket bucket) = 0;

    /// The projects of account `account_id` having builds created in [from_ms, to_ms], by id.
    virtual std::vector<int64_t> account_projects_with_builds(soci::session& session,
                                                              int64_t account_id, int64_t from_ms,
                                                              int64_t to_ms) = 0;

    /// The start (epoch ms) of a flakiness period ending at `now_ms`: "LAST_24_HOURS",
    /// "LAST_3_DAYS", "LAST_7_DAYS", "LAST_30_DAYS" or "LAST_90_DAYS"; nullopt for another name.
    virtual std::optional<int64_t> metrics_period_start(const std::string& period,
                                                        int64_t now_ms) = 0;

    /// The project's tests with a non-zero flakiness over [from_ms, now_ms) (the metrics of the
    /// diff list's `test`), most flaky first (then most changes, then most diffs, then id),
    /// at most `limit`.
    virtual std::vector<FlakyTest> flaky_tests(soci::session& session, int64_t project_id,
                                               int64_t from_ms, int64_t now_ms, int limit) = 0;
};

}  // namespace loupe::builds
