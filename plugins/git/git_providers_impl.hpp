#pragma once
// The GitProviders service: the HTTP client shared by both providers' clients, and the links.

#include "github/github_app_client.hpp"
#include "gitlab/gitlab_api_client.hpp"
#include "http/provider_call.hpp"
#include "loupe/git/git_providers.hpp"

namespace loupe::git {

class GitProvidersImpl final : public GitProviders {
public:
    /// Throws std::runtime_error for an unreadable CA file or App private key.
    explicit GitProvidersImpl(const GitSettings& settings);

    GitHubApp& github() override { return github_; }
    GitLabClient& gitlab() override { return gitlab_; }
    std::optional<RepositoryLink> find_link(soci::session& session, int64_t project_id) override;
    CallResult push_commit_status(const RepositoryLink& link, const CommitStatus& status) override;

    GitHubAppClient& github_client() { return github_; }
    /// The outgoing HTTP client every provider call goes through.
    const HttpClient& http_client() const { return http_.client(); }
    GitLabApiClient& gitlab_client() { return gitlab_; }

private:
    ProviderHttp http_;
    GitHubAppClient github_;
    GitLabApiClient gitlab_;
};

/// "owner/name" split at its slash (a GitHub repository).
std::pair<std::string, std::string> split_repository(const std::string& repository);

}  // namespace loupe::git
