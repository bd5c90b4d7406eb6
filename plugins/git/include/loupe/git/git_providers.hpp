#pragma once
// What the git plugin offers other plugins: one client per git hosting provider (GitHub as a
// GitHub App, GitLab with a project or group access token) and the repository each project is
// linked to. Deployments, pull-request comments or anything else that talks to a provider uses
// these instead of writing its own HTTP, authentication and certificate handling.
//
// Look it up at install time: `auto* git = host.services().find<git::GitProviders>();`
// OWNERSHIP: owned by the git plugin for the process lifetime. THREADS: every method is
// thread-safe. Calls block for at most the configured timeout (`plugins.git.timeout_ms`) and
// never throw for a provider's answer: the outcome says what happened. Call them from jobs, not
// from request handlers, unless the request must wait for the provider.
// VERSIONING: a new method or field is a minor change; changing a signature or a meaning bumps
// service_version.

#include <cstdint>
#include <optional>
#include <string>

#include "loupe/json.hpp"

namespace soci {
class session;
}

namespace loupe::git {

enum class Provider { github, gitlab };

/// The repository a project is linked to (`loupe admin project link-github|link-gitlab`).
struct RepositoryLink {
    int64_t project_id = 0;
    Provider provider = Provider::github;
    /// GitHub: "owner/name"; GitLab: the project's full path, "group/subgroup/name".
    std::string repository;
    std::optional<int64_t> installation_id;  ///< GitHub App installation
    /// GitLab: a file holding this project's access token (else `gitlab.token`).
    std::optional<std::string> token_file;
    /// GitLab: the project's numeric id when given at link time (else looked up by path).
    std::optional<int64_t> gitlab_project_id;
};

/// A commit status as both providers take it. `state` is the provider's own word: GitHub
/// pending | success | failure | error; GitLab pending | running | success | failed | canceled.
struct CommitStatus {
    std::string sha;
    std::string state;
    std::string description;
    std::string context;
    std::string target_url;
};

enum class Outcome {
    ok,
    not_found,       ///< the provider answered 404 for the resource
    not_installed,   ///< GitHub: the App installation is gone or suspended
    rejected,        ///< any other 4xx: the provider refused the call
    unavailable,     ///< timeout, network or TLS error, 5xx, or an unreadable answer
    not_configured,  ///< no App credentials or access token configured
};

struct CallResult {
    Outcome outcome = Outcome::ok;
    int http_status = 0;  ///< the provider's status; 0 when it did not answer
    std::string message;  ///< what went wrong, for logs and job errors
    bool ok() const { return outcome == Outcome::ok; }
};

struct ProviderReply {
    CallResult result;
    Json body;  ///< the parsed answer (null when empty or not JSON)
};

struct WorkflowRun {
    std::string status;  ///< queued | in_progress | completed | ...
    std::string head_sha;
    std::optional<std::string> head_branch;
    /// The head repository is not the run's repository (a pull request from a fork), or GitHub
    /// did not say which it is.
    bool head_is_fork = true;
};

struct GitLabJob {
    int64_t id = 0;
    int64_t project_id = 0;  ///< the numeric id of the job's project
    std::string status;      ///< created | pending | running | success | failed | ...
    std::string sha;         ///< the pipeline's commit
    std::string ref;         ///< the branch or tag the pipeline runs for
};

class GitHubApp {
public:
    virtual ~GitHubApp() = default;
    /// True when `github.app_id` and the App's private key are configured.
    virtual bool configured() const = 0;
    /// GET /repos/{owner}/{repo}/actions/runs/{run_id} as the installation.
    virtual CallResult workflow_run(int64_t installation_id, const std::string& owner,
                                    const std::string& repo, const std::string& run_id,
                                    WorkflowRun& run) = 0;
    /// POST /repos/{owner}/{repo}/statuses/{sha}.
    virtual CallResult create_commit_status(int64_t installation_id, const std::string& owner,
                                            const std::string& repo,
                                            const CommitStatus& status) = 0;
    /// Any other REST call as the installation: `path` is relative to `github.api_url`
    /// ("/repos/o/r/issues/1/comments"), `body` is sent as JSON unless null.
    virtual ProviderReply call(int64_t installation_id, const std::string& method,
                               const std::string& path, const Json& body) = 0;
};

class GitLabClient {
public:
    virtual ~GitLabClient() = default;
    /// True when an access token is available for this link (its token file, or gitlab.token).
    virtual bool configured(const RepositoryLink& link) const = 0;
    /// GET /job with a CI job's token: the job that token belongs to.
    virtual CallResult job(const std::string& job_token, GitLabJob& job) = 0;
    /// POST /projects/{path}/statuses/{sha} with the link's access token.
    virtual CallResult create_commit_status(const RepositoryLink& link,
                                            const CommitStatus& status) = 0;
    /// Any other REST call with the link's access token; `path` is relative to `gitlab.api_url`.
    virtual ProviderReply call(const RepositoryLink& link, const std::string& method,
                               const std::string& path, const Json& body) = 0;
};

class GitProviders {
public:
    static constexpr const char* service_name = "git.GitProviders";
    static constexpr int service_version = 1;

    virtual ~GitProviders() = default;

    virtual GitHubApp& github() = 0;
    virtual GitLabClient& gitlab() = 0;
    /// The repository `project_id` is linked to, if any (in the caller's session).
    virtual std::optional<RepositoryLink> find_link(soci::session& session, int64_t project_id) = 0;
    /// Sets a commit status on whichever provider the link names.
    virtual CallResult push_commit_status(const RepositoryLink& link,
                                          const CommitStatus& status) = 0;
};

}  // namespace loupe::git
