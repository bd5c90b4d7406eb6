#pragma once
// What a git provider says about pull requests, told to the builds plugin: a merged pull
// request's builds count as approved baselines (when the project's mergedPullRequestApproval
// is on), as Argos counts them. Look it up at install time with
// `host.services().find<loupe::builds::PullRequestMerges>()` (nullptr without the builds plugin).
// OWNERSHIP: owned by the builds plugin for the process lifetime. THREADS: thread-safe.
// VERSIONING: a new method is a minor change; a changed signature bumps service_version.

#include <cstdint>

namespace soci {
class session;
}

namespace loupe::builds {

class PullRequestMerges {
public:
    static constexpr const char* service_name = "builds.PullRequestMerges";
    static constexpr int service_version = 1;

    virtual ~PullRequestMerges() = default;
    /// Records, in the caller's transaction, that the project's pull request `pr_number` was
    /// merged at `merged_at` (ms since the epoch). False when it was already recorded (a
    /// provider may deliver one event several times).
    virtual bool record_merged(soci::session& session, int64_t project_id, int64_t pr_number,
                               int64_t merged_at) = 0;
};

}  // namespace loupe::builds
