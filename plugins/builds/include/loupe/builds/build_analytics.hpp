#pragma once
// The reads behind the analytics pages: build activity per time bucket and the flakiest tests,
// counted by the database over the builds plugin's tables.
//
// Look it up at install time: `host.services().require<BuildAnalytics>()`.
// OWNERSHIP: owned by the builds plugin for the process lifetime. THREADS: thread-safe; every
// method reads in the caller's session.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "loupe/json.hpp"

namespace soci {
class session;
}

namespace loupe::builds {

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

class BuildAnalytics {
public:
    static constexpr const char* service_name = "builds.BuildAnalytics";
    static constexpr int service_version = 1;

    virtual ~BuildAnalytics() = default;

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
