#pragma once
// Posts what a pull request shows of its builds, through the outbox (store/push_outbox.hpp) and
// durable jobs, so a slow or failing provider never slows a request or fails a build:
//   - the event subscriber `git.pull_request_changes` (events/build_changes.hpp), on each event
//     that changes how a build naming a pull request reads (created, concluded, review state
//     changed, failed; not merge-queue builds), notes the build and queues a
//     `git.pull_request_post` job for the pull request's comment (when the build's project has
//     `prCommentEnabled`) and, on GitHub, for the head commit's summary check (unless the project's
//     `summaryCheck` is `never`);
//   - the job claims the post's row, renders it from the builds as they now read and sends it:
//     the first time it creates the comment (GitHub issue comment, GitLab merge request note) or
//     the check run and keeps the provider's id, then it edits that one in place. An unchanged
//     body is not sent again; a comment someone deleted (404 on edit) is not posted again. A
//     failure is retried with backoff (`plugins.git.status_push_attempts`), then the job is
//     marked failed and the error kept on the row.
// The comment lists the newest build of each project and build name on the pull request's head
// commit (projects with `prCommentEnabled` off are left out); the summary check folds the same
// builds of every project linked to the repository, posted only when `summaryCheck` is `always`,
// or `auto` and there are several of them.
// The poster is also the git.PullRequestComments service: another plugin's comment (a topic) is
// posted by the same job from the sections projects wrote.

#include "events/build_changes.hpp"
#include "git_providers_impl.hpp"
#include "loupe/builds/builds_service.hpp"
#include "loupe/git/pull_request_comments.hpp"
#include "loupe/host.hpp"
#include "pull_request/pull_request_markdown.hpp"
#include "settings/git_settings.hpp"
#include "store/pull_requests.hpp"

namespace loupe::git {

inline constexpr const char* pull_request_post_job_kind = "git.pull_request_post";
inline constexpr const char* pull_request_change_subscriber = "git.pull_request_changes";

class PullRequestPoster final : public PullRequestComments {
public:
    PullRequestPoster(Host& host, GitProvidersImpl& providers, builds::BuildsService& builds,
                      const GitSettings& settings);

    /// Registers the job kind and subscribes to the build events (install() only).
    void install();

    void observe(soci::session& session, BuildChange change, const builds::BuildSummary& build);
    bool set_section(soci::session& session, int64_t project_id, int64_t pr_number,
                     const std::string& topic, const std::string& markdown) override;
    void push(const Job& job);
    void give_up(const Job& job, const std::string& error);

private:
    /// What to send for a post; `body` empty when nothing is to be sent.
    struct Delivery {
        std::optional<RepositoryLink> link;
        std::string body;
        Json request;  ///< the JSON sent
    };
    void queue_post(soci::session& session, const PullRequestPost& post);
    Delivery plan(const PullRequestPost& post);
    /// The body of a topic's comment: the sections of the projects that comment.
    std::string topic_body(soci::session& session, const PullRequestPost& post);
    std::vector<ListedBuild> listed_builds(soci::session& session,
                                           const std::vector<PullRequestBuild>& builds,
                                           bool only_commenting_projects);
    /// Sends the post; returns the provider's id of what it created or edited.
    ProviderReply send(const PullRequestPost& post, const Delivery& delivery);

    Host& host_;
    GitProvidersImpl& providers_;
    builds::BuildsService& builds_;
    GitSettings settings_;
    int64_t claim_lease_ms_;
};

}  // namespace loupe::git
