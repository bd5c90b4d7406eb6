#pragma once
// A provider people sign in with, as the sign-in routes use it: where to send the browser, and
// the verified claims a returned code stands for ({sub, email, email_verified, name, groups,
// nonce}, as an OpenID Connect ID token carries them). An OpenID Connect provider verifies an ID
// token (OidcClient); GitHub, which is not OpenID Connect for people, answers its user API
// (GitHubClient). THREADS: implementations are thread-safe.

#include <string>

#include "loupe/json.hpp"
#include "settings/oidc_providers.hpp"

namespace loupe::sso {

class SignInClient {
public:
    virtual ~SignInClient() = default;

    virtual const OidcProvider& provider() const = 0;

    /// Where to send the browser. Throws ProviderUnavailable.
    virtual std::string authorization_url(const std::string& redirect_uri, const std::string& state,
                                          const std::string& nonce,
                                          const std::string& code_challenge) = 0;

    /// The verified claims the code redeems for; `nonce` is the one this sign-in sent. Throws
    /// ProviderUnavailable or SignInRejected.
    virtual Json redeem(const std::string& code, const std::string& code_verifier,
                        const std::string& redirect_uri, const std::string& nonce) = 0;
};

}  // namespace loupe::sso
