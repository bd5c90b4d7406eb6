#pragma once
// Tokenless authentication for CI jobs that hold no secret. Two ways in:
//   - the bearer itself (`tokenless-github-…`, `tokenless-gitlab-…`) on any project-token
//     endpoint, verified with the provider and then trusted for `tokenless_cache_ms`;
//   - an exchange (POST /auth/github-actions/tokenless/exchange, POST
//     /auth/gitlab-ci/tokenless/exchange) that also matches the commit and branch and answers a
//     short-lived project token (10 minutes, stored hashed, so every instance accepts it).
// Either way the project must have `tokenlessAuthEnabled`, checked again on every request.

#include <string>

#include "loupe/auth/identity.hpp"
#include "loupe/cache/single_flight_cache.hpp"
#include "loupe/db/database.hpp"
#include "loupe/json.hpp"
#include "settings/git_settings.hpp"
#include "tokenless/github_tokenless.hpp"
#include "tokenless/gitlab_tokenless.hpp"

namespace loupe::git {

class TokenlessAuth {
public:
    TokenlessAuth(Database& database, Identity& identity, GitHubAppClient& github,
                  GitLabApiClient& gitlab, Logger& log, const GitSettings& settings);

    /// The project principal of a direct bearer; throws HttpError.
    Principal github_bearer(const std::string& token);
    Principal gitlab_bearer(const std::string& token);

    /// `{"token", "expiresAt"}`; throws HttpError.
    Json exchange_github(const std::string& token, const std::string& commit,
                         const std::string& branch);
    Json exchange_gitlab(const std::string& token, const std::string& commit,
                         const std::string& branch);

private:
    struct ExchangeFacts {
        std::optional<int64_t> project_id;  ///< nullopt: no project linked
        bool commit_matches = false;
        bool branch_matches = false;
    };
    struct ExchangeWording {
        const char* no_project;
        const char* commit_mismatch;
        const char* branch_mismatch;
    };
    /// The exchange's checks after the provider's, in order; returns the project.
    int64_t exchange_project(const ExchangeFacts& facts, const ExchangeWording& wording);
    Json token_answer(const IssuedToken& issued) const;
    bool enabled(int64_t project_id);
    /// A cached principal still stands while its project keeps a link and tokenless enabled.
    std::optional<Principal> cached(const std::string& token);

    Database& database_;
    Identity& identity_;
    GitHubTokenless github_;
    GitLabTokenless gitlab_;
    /// Tokenless bearers verified recently, so the many requests of one CI run (GET /project,
    /// POST /builds, PUT /builds/{id}, ...) ask GitHub or GitLab once, not once each; concurrent
    /// requests with a token not yet verified wait for one verification. Keyed by the token's
    /// SHA-256; failures are not kept.
    SingleFlightCache<std::string, Principal> verified_;
    int64_t short_lived_token_ms_;
};

}  // namespace loupe::git
