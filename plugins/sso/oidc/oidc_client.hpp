#pragma once
// One OpenID Connect provider as a relying party sees it: its endpoints from discovery
// (`<issuer>/.well-known/openid-configuration`, fetched at the first sign-in and kept; a failed
// discovery is tried again after a pause, never at every request), the authorization URL a
// browser is sent to, and the redemption of the code the browser brings back (Authorization
// Code with PKCE) into the ID token's verified claims: signature against the provider's JWKS
// (RS256 or ES256, keys refetched when a `kid` is new), `iss`, `aud` (this client), `exp`.
// THREADS: thread-safe.

#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>

#include "loupe/http/http_client.hpp"
#include "loupe/jose/jwks_cache.hpp"
#include "loupe/json.hpp"
#include "settings/oidc_providers.hpp"
#include "sign_in/sign_in_client.hpp"

namespace loupe::sso {

/// The provider cannot be used now (discovery, the token endpoint or the keys failed): the
/// person is told to try again later; the message names what failed, for the log.
class ProviderUnavailable : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// The provider refused the code or sent a token that does not verify: the sign-in fails.
class SignInRejected : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct ProviderEndpoints {
    std::string authorization_endpoint;
    std::string token_endpoint;
    std::string jwks_uri;
};

class OidcClient final : public SignInClient {
public:
    /// `http` must outlive the client.
    OidcClient(const HttpClient& http, OidcProvider provider);

    const OidcProvider& provider() const override { return provider_; }

    /// Where to send the browser. Throws ProviderUnavailable.
    std::string authorization_url(const std::string& redirect_uri, const std::string& state,
                                  const std::string& nonce,
                                  const std::string& code_challenge) override;

    /// The verified claims of the ID token the code redeems for (its `nonce` is checked against
    /// the sign-in's by sign_in_identity). Throws ProviderUnavailable or SignInRejected.
    Json redeem(const std::string& code, const std::string& code_verifier,
                const std::string& redirect_uri);
    Json redeem(const std::string& code, const std::string& code_verifier,
                const std::string& redirect_uri, const std::string& nonce) override;

private:
    /// The endpoints, discovered once. Throws ProviderUnavailable.
    ProviderEndpoints endpoints();
    jose::JwksCache& keys();

    const HttpClient& http_;
    OidcProvider provider_;
    HttpCallOptions call_options_;
    std::mutex mutex_;
    std::optional<ProviderEndpoints> endpoints_;
    std::unique_ptr<jose::JwksCache> keys_;
    std::optional<std::chrono::steady_clock::time_point> failed_at_;
    std::string failure_;
};

}  // namespace loupe::sso
