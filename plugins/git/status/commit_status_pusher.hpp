#pragma once
// Pushes each linked build's commit status to its provider, as durable jobs so a slow or failing
// provider never slows a request or fails a build:
//   - the event subscriber `git.status_changes` (events/build_changes.hpp), on each event that
//     changes how a build reads (created, concluded, review state changed, failed), notes the
//     change and queues a `git.commit_status` job;
//   - a `git.commit_status_expiry` job queued at creation looks again once the build would read
//     expired, and queues a push if it does;
//   - the push job claims the build's row, renders the build as it now reads and sends it; a
//     failure is retried with backoff (`plugins.git.status_push_attempts`), then the job is
//     marked failed (see `loupe jobs list`) and the error kept on the row.
// Pushes for one build never overlap and the latest state wins (see store/commit_statuses.hpp).

#include <optional>

#include "events/build_changes.hpp"
#include "git_providers_impl.hpp"
#include "loupe/builds/builds_service.hpp"
#include "loupe/host.hpp"
#include "settings/git_settings.hpp"

namespace loupe::git {

inline constexpr const char* status_push_job_kind = "git.commit_status";
inline constexpr const char* status_change_subscriber = "git.status_changes";
inline constexpr const char* status_expiry_job_kind = "git.commit_status_expiry";

class CommitStatusPusher {
public:
    CommitStatusPusher(Host& host, GitProvidersImpl& providers, builds::BuildsService& builds,
                       const GitSettings& settings);

    /// Registers the job kinds and subscribes to the build events (install() only).
    void install();

    void observe(soci::session& session, BuildChange change, const builds::BuildSummary& build);
    void push(const Job& job);
    void give_up(const Job& job, const std::string& error);
    void check_expiry(const Job& job);

private:
    struct Plan {
        std::optional<RepositoryLink> link;
        CommitStatus status;
        bool unchanged = false;  ///< exactly what was last pushed
    };
    void queue_push(soci::session& session, int64_t build_id, int64_t project_id);
    Plan plan(int64_t build_id);

    Host& host_;
    GitProvidersImpl& providers_;
    builds::BuildsService& builds_;
    GitSettings settings_;
    int64_t claim_lease_ms_;
};

}  // namespace loupe::git
