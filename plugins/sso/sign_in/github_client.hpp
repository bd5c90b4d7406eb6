#pragma once
// GitHub (github.com or a GitHub Enterprise Server) as a sign-in provider: an OAuth app, since
// GitHub is not OpenID Connect for people. The browser goes to <issuer>/login/oauth/authorize
// (with PKCE); the code is exchanged at <issuer>/login/oauth/access_token for a user token,
// which reads <api>/user, <api>/user/emails (the primary verified address, else the first
// verified one) and, when the provider maps roles, the person's organisations and teams
// (<api>/user/orgs, <api>/user/teams: groups "<org>" and "<org>/<team>"). The token is used for
// those calls only and never stored. There is no ID token and so no nonce: the sign-in is bound
// to the browser by its state cookie, as every sign-in is, and the claims carry this sign-in's
// nonce. THREADS: thread-safe.

#include "loupe/http/http_client.hpp"
#include "sign_in/sign_in_client.hpp"

namespace loupe::sso {

class GitHubClient final : public SignInClient {
public:
    /// `http` must outlive the client.
    GitHubClient(const HttpClient& http, OidcProvider provider);

    const OidcProvider& provider() const override { return provider_; }
    std::string authorization_url(const std::string& redirect_uri, const std::string& state,
                                  const std::string& nonce,
                                  const std::string& code_challenge) override;
    Json redeem(const std::string& code, const std::string& code_verifier,
                const std::string& redirect_uri, const std::string& nonce) override;

private:
    /// GET <api><path> as the person; the JSON answer, or ProviderUnavailable/SignInRejected.
    Json api_get(const std::string& token, const std::string& path) const;

    const HttpClient& http_;
    OidcProvider provider_;
    HttpCallOptions call_options_;
};

}  // namespace loupe::sso
