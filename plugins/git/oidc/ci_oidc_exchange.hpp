#pragma once
// Keyless CI uploads with an OpenID Connect ID token: POST /auth/github-actions/oidc/exchange
// (what the Argos CLI 6 does first on GitHub Actions when the job may request an ID token) and
// POST /auth/gitlab-ci/oidc/exchange (a GitLab CI job's `id_tokens`). The token is verified
// against its issuer's keys (oidc_issuer.hpp) and must be meant for this server (`aud`: the
// origin of http.public_url, or one of plugins.git.oidc_audiences); its repository must be
// linked to exactly one project that turned the way in on (githubActionsOidcEnabled,
// gitlabCiOidcEnabled). The answer is a short-lived project token (the tokenless exchange's:
// stored hashed, plugins.git.short_lived_token_ms) bound to the token's commit (`sha`) and
// branch (`ref`), so a build or deployment of any other commit is refused. Refusals, in order:
//   token invalid, expired, for another audience or issuer, or signed by an unknown key → 401;
//   issuer's keys unreachable → 503; `repository` in the body not the token's → 401; no linked
//   project → 401; several → 400; switch off → 403; `commit` in the body not the token's → 401.

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "loupe/auth/identity.hpp"
#include "loupe/db/database.hpp"
#include "loupe/git/git_providers.hpp"
#include "loupe/json.hpp"
#include "loupe/log/logger.hpp"
#include "oidc/oidc_issuer.hpp"
#include "settings/git_settings.hpp"
#include "store/project_settings.hpp"

namespace loupe::git {

struct OidcExchangeInput {
    std::string oidc_token;
    std::optional<std::string> repository;  ///< GitHub: "owner/name", checked when given
    std::optional<std::string> commit;      ///< checked against the token's `sha` when given
};

/// What a GitHub Actions ID token vouches for: its `sha`; the branch of a push (`ref`
/// refs/heads/…, except a merge-queue branch) or the head branch of a pull request
/// (`head_ref`), whose head may not claim the project's own branches.
RunBinding github_oidc_binding(const Json& claims);
/// What a GitLab CI ID token vouches for: its `sha`; its branch (`ref` when `ref_type` is
/// branch); a merge-request pipeline's head may not claim the project's own branches.
RunBinding gitlab_oidc_binding(const Json& claims);

class CiOidcExchange {
public:
    /// `public_url` gives http.public_url once the server listens.
    CiOidcExchange(Database& database, Identity& identity, const HttpClient& http, Logger& log,
                   const GitSettings& settings, std::function<std::string()> public_url);

    /// `{"token", "expiresAt"}`; throws HttpError.
    Json exchange_github(const OidcExchangeInput& input);
    Json exchange_gitlab(const OidcExchangeInput& input);

private:
    struct Wording {
        const char* invalid;
        const char* unavailable;
        const char* no_project;
        const char* multiple;
        const char* disabled;
        const char* commit_mismatch;
    };
    /// The verified claims, with the string claims `required` present; throws HttpError.
    Json verified_claims(OidcIssuer& issuer, const std::string& token,
                         const std::vector<const char*>& required, const Wording& wording);
    /// The one project linked to `repository` that enabled the way in; throws HttpError.
    Project linked_project(Provider provider, const std::string& repository,
                           const std::optional<int64_t>& gitlab_project_id, const Wording& wording,
                           bool GitProjectSettings::*enabled);
    std::vector<std::string> audiences() const;
    Json token_answer(const IssuedToken& issued) const;

    Database& database_;
    Identity& identity_;
    Logger& log_;
    OidcIssuer github_;
    OidcIssuer gitlab_;
    std::vector<std::string> extra_audiences_;
    std::function<std::string()> public_url_;
    int64_t short_lived_token_ms_;
};

}  // namespace loupe::git
