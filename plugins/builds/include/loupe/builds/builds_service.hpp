#pragma once
// What the builds plugin offers other plugins (reviews, the web page, git providers): read
// queries over builds and their diffs, and the Build resource as the API renders it. What
// happens to builds reaches other plugins as events (loupe/builds/events.hpp); the review state
// is set through loupe/builds/build_review_states.hpp, activity and flakiness are read through
// loupe/builds/build_analytics.hpp.
//
// Look it up at install time: `auto& builds = host.services().require<BuildsService>();`
// OWNERSHIP: owned by the builds plugin for the process lifetime. THREADS: every method is
// thread-safe. Methods taking a soci::session& run in the caller's session (and transaction).
// VERSIONING: a new method or field is a minor change; changing a signature or a meaning bumps
// service_version (2: states are enums, observers became events, the review-state write and
// the analytics reads moved to services of their own).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "loupe/auth/identity.hpp"
#include "loupe/builds/build_states.hpp"
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
    BuildMode mode = BuildMode::ci;
    std::optional<BuildType> type;  ///< set once processing chose a baseline
    std::optional<Conclusion> conclusion;
    BuildStatus status = BuildStatus::pending;  ///< the status clients see
    /// As the reviews plugin last set it (whatever the conclusion).
    std::optional<ReviewState> review_state;
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
    std::string name;  ///< the head screenshot's name, else the base's
    DiffStatus status = DiffStatus::pending;
    std::optional<double> score;
    std::optional<std::string> fingerprint;
    std::optional<std::string> base_key;  ///< the base file's SHA-256
    std::optional<std::string> head_key;  ///< the head file's SHA-256
    std::optional<int64_t> test_id;
    bool needs_review = false;  ///< changed, added, or removed (except on subset builds)
};

class BuildsService {
public:
    static constexpr const char* service_name = "builds.BuildsService";
    static constexpr int service_version = 2;

    virtual ~BuildsService() = default;

    /// A build of `project` by its number; nullopt when there is none.
    virtual std::optional<BuildSummary> find_build(soci::session& session, int64_t project_id,
                                                   int64_t number) = 0;
    virtual std::optional<BuildSummary> find_build_by_id(soci::session& session,
                                                         int64_t build_id) = 0;
    /// Several builds by id in one read (missing ids are absent), in the order given.
    virtual std::vector<BuildSummary> find_builds_by_id(soci::session& session,
                                                        const std::vector<int64_t>& ids) = 0;
    /// The build with its row locked until the caller's transaction ends: writers of a build's
    /// review state take it first, so concurrent reviews are recorded one after the other.
    virtual std::optional<BuildSummary> lock_build(soci::session& session, int64_t build_id) = 0;
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
};

}  // namespace loupe::builds
