#pragma once
// What the git plugin posts in pull requests (GitHub) and merge requests (GitLab):
//   - `git_pull_request_builds`: every build of a linked project that names a pull request, with
//     the pull request's head commit (the comment and the summary check list these);
//   - `git_pull_request_posts`: one outbox row (store/push_outbox.hpp) per pull request comment
//     (target: the pull request number) and per summary check (target: the head commit), keeping
//     the provider's id of what was created and the body last sent; a comment of another plugin
//     (git.PullRequestComments) has a topic, and its target is "{number}#{topic}";
//   - `git_pull_request_sections`: what each project shows in such a comment.

#include <soci/soci.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace loupe::git {

struct PullRequestBuild {
    int64_t build_id = 0;
    int64_t project_id = 0;
    std::string provider;
    std::string repository_key;
    int64_t pr_number = 0;
    std::string head_sha;
    std::string name;
    int64_t created_at = 0;
};

/// Notes the build (again: its row is kept as first written).
void record_pull_request_build(soci::session& session, const PullRequestBuild& build);
/// The head commit of the pull request's newest build; nullopt when it has none.
std::optional<std::string> pull_request_head(soci::session& session, const std::string& provider,
                                             const std::string& repository_key, int64_t pr_number);
/// The newest build of each (project, build name) on `head_sha` in the repository.
std::vector<PullRequestBuild> head_builds(soci::session& session, const std::string& provider,
                                          const std::string& repository_key,
                                          const std::string& head_sha);

enum class PostKind { comment, check };

struct PullRequestPost {
    int64_t id = 0;
    PostKind kind = PostKind::comment;
    std::string provider;
    std::string repository_key;
    std::string target;      ///< comment: the pull request number; check: the head commit
    int64_t project_id = 0;  ///< the project whose repository link the calls go through
    int64_t pr_number = 0;
    std::string head_sha;
    std::optional<std::string> remote_id;  ///< the provider's comment, note or check run id
    bool remote_gone = false;              ///< someone deleted the comment: never posted again
    std::optional<std::string> pushed_body;
    std::optional<std::string> topic;  ///< another plugin's comment; none: the builds' comment
};

struct PostRequest {
    int64_t id = 0;
    int64_t seq = 0;
};

/// Notes a new state of the post to push (creating its row); returns its id and sequence.
PostRequest request_post(soci::session& session, const PullRequestPost& post, int64_t now);
std::optional<PullRequestPost> find_post(soci::session& session, int64_t id);
/// Records a successful push of the claimed state: the provider's id and the body sent.
void record_post_pushed(soci::session& session, int64_t id, int64_t claimed_seq,
                        const std::string& remote_id, const std::string& body, int64_t now);
/// The provider no longer has the comment (a person deleted it): it is not posted again.
void mark_post_gone(soci::session& session, int64_t id, int64_t claimed_seq, int64_t now);

struct PullRequestSection {
    std::string provider;
    std::string repository_key;
    int64_t pr_number = 0;
    std::string topic;
    int64_t project_id = 0;
    std::string markdown;  ///< empty: the project's section is removed
};

/// Writes (or, with empty Markdown, removes) the project's section.
void write_section(soci::session& session, const PullRequestSection& section, int64_t now);
/// The sections of a topic's comment, in project order.
std::vector<PullRequestSection> topic_sections(soci::session& session, const std::string& provider,
                                               const std::string& repository_key, int64_t pr_number,
                                               const std::string& topic);

/// Forgets the builds retention deleted; returns how many rows went.
int64_t delete_pull_request_builds(soci::session& session, const std::vector<int64_t>& build_ids);

}  // namespace loupe::git
