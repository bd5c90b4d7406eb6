#pragma once
// GitHub as a GitHub App: a JWT signed RS256 with the App's private key is exchanged for an
// installation token (POST /app/installations/{id}/access_tokens), kept until five minutes
// before it expires, and every call is made as that installation. The base URL is
// `github.api_url`, so GitHub Enterprise Server (`https://HOST/api/v3`) works the same.

#include <map>
#include <mutex>
#include <optional>
#include <string>

#include "http/provider_call.hpp"
#include "loupe/git/git_providers.hpp"
#include "loupe/jose/jwk.hpp"

namespace loupe::git {

class GitHubAppClient final : public GitHubApp {
public:
    /// Throws std::runtime_error when the private key is set but cannot be read.
    GitHubAppClient(const ProviderHttp& http, const GitSettings& settings);
    ~GitHubAppClient() override;

    bool configured() const override;
    CallResult workflow_run(int64_t installation_id, const std::string& owner,
                            const std::string& repo, const std::string& run_id,
                            WorkflowRun& run) override;
    CallResult create_commit_status(int64_t installation_id, const std::string& owner,
                                    const std::string& repo, const CommitStatus& status) override;
    ProviderReply call(int64_t installation_id, const std::string& method, const std::string& path,
                       const Json& body) override;

    /// The same calls within an explicit deadline (request paths share one budget). A workflow
    /// run GitHub fails to serve (5xx, timeout) is asked again while the deadline allows.
    CallResult workflow_run(int64_t installation_id, const std::string& owner,
                            const std::string& repo, const std::string& run_id, WorkflowRun& run,
                            Deadline deadline);
    ProviderReply call(int64_t installation_id, const std::string& method, const std::string& path,
                       const Json& body, Deadline deadline);

    /// The App's JWT (RS256, issued 60 s in the past for clock drift, valid 9 minutes).
    std::string app_jwt() const;

private:
    struct CachedToken {
        std::string token;
        int64_t expires_at_ms = 0;
    };
    /// An installation token, from the cache or from GitHub. 404/403 → not_installed.
    CallResult installation_token(int64_t installation_id, Deadline deadline, std::string& token);
    void forget_token(int64_t installation_id, const std::string& token);

    const ProviderHttp& http_;
    std::string api_url_;
    std::string app_id_;
    int64_t timeout_ms_;
    std::optional<jose::SigningKey> key_;
    std::mutex mutex_;
    std::map<int64_t, CachedToken> tokens_;
};

}  // namespace loupe::git
