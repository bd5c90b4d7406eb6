#pragma once
// GitLab with a project or group access token (`PRIVATE-TOKEN`): the link's own token file, or
// `gitlab.token` / `gitlab.token_file`. CI jobs are looked up with their own job token
// (`JOB-TOKEN`, GET /job). The base URL is `gitlab.api_url` (`https://HOST/api/v4` for a
// self-managed GitLab).

#include <map>
#include <mutex>
#include <string>

#include "http/provider_call.hpp"
#include "loupe/git/git_providers.hpp"

namespace loupe::git {

class GitLabApiClient final : public GitLabClient {
public:
    GitLabApiClient(const ProviderHttp& http, const GitSettings& settings);

    bool configured(const RepositoryLink& link) const override;
    CallResult job(const std::string& job_token, GitLabJob& job) override;
    CallResult create_commit_status(const RepositoryLink& link,
                                    const CommitStatus& status) override;
    ProviderReply call(const RepositoryLink& link, const std::string& method,
                       const std::string& path, const Json& body) override;

    CallResult job(const std::string& job_token, GitLabJob& job, Deadline deadline);
    /// The numeric id of the link's GitLab project (GET /projects/{path}), remembered once known.
    CallResult project_id(const RepositoryLink& link, int64_t& id, Deadline deadline);
    ProviderReply call(const RepositoryLink& link, const std::string& method,
                       const std::string& path, const Json& body, Deadline deadline);

private:
    /// The access token for this link; empty when none is configured.
    std::string access_token(const RepositoryLink& link) const;

    const ProviderHttp& http_;
    std::string api_url_;
    std::string token_;
    std::string token_file_;
    int64_t timeout_ms_;
    std::mutex mutex_;
    std::map<std::string, int64_t> project_ids_;
};

}  // namespace loupe::git
