#pragma once
// Pushes each linked build's commit status to its provider, so a slow or failing provider never
// slows a request or fails a build:
//   - the subscriber `git.commit_status` receives the events that change what a build's status
//     reads (build.created, build.concluded, build.failed, build.review_state_changed; not
//     build.finalized: the pull request already shows "Build is queued"); each delivery pushes
//     the build as it reads when the push starts;
//   - a `git.commit_status_expiry` job queued at creation looks again once the build would read
//     expired, and pushes if it does;
//   - a push claims the build's row (store/commit_statuses.hpp), renders the build, sends it
//     unless the provider already shows exactly that, and records it. A push that finds
//     another one under way for the same build waits for it (the job is deferred, the attempt
//     not counted); a failure is retried with backoff (`plugins.git.status_push_attempts`),
//     then the delivery is marked failed (see `loupe jobs list`) and the error kept on the row.

#include <optional>

#include "git_providers_impl.hpp"
#include "loupe/builds/builds_service.hpp"
#include "loupe/builds/events.hpp"
#include "loupe/host.hpp"
#include "settings/git_settings.hpp"

namespace loupe::git {

inline constexpr const char* status_subscriber = "git.commit_status";
inline constexpr const char* status_expiry_job_kind = "git.commit_status_expiry";

class CommitStatusPusher {
public:
    CommitStatusPusher(Host& host, GitProvidersImpl& providers, builds::BuildsService& builds,
                       const GitSettings& settings);

    /// Subscribes to the build events and registers the expiry job (install() only).
    void install();

    /// Pushes the build's status as it now reads, if its project is linked. Throws on a failed
    /// push (to be retried), JobDeferred while another push of the build is under way.
    void push(int64_t build_id, int attempt);
    void give_up(int64_t build_id, const std::string& error);
    void check_expiry(const Job& job);

private:
    struct Plan {
        std::optional<RepositoryLink> link;
        CommitStatus status;
        bool unchanged = false;  ///< exactly what was last pushed
    };
    void queue_expiry_check(const builds::BuildFacts& build);
    Plan plan(int64_t build_id);

    Host& host_;
    GitProvidersImpl& providers_;
    builds::BuildsService& builds_;
    GitSettings settings_;
    int64_t claim_lease_ms_;
};

}  // namespace loupe::git
