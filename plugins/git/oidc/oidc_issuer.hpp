#pragma once
// An OpenID Connect issuer of CI ID tokens (GitHub Actions, GitLab CI). Its signing keys are
// found through discovery: `<issuer>/.well-known/openid-configuration` names the `jwks_uri`
// (and must name this very issuer), and the key set is then kept by a jose::JwksCache, fetched
// again for a `kid` it lacks at most once a minute. A failed discovery is tried again at most
// once per `discovery_retry`, so an issuer that is down, and a stream of requests meanwhile,
// do not become a stream of fetches. THREADS: thread-safe.

#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "loupe/http/http_client.hpp"
#include "loupe/jose/jwks_cache.hpp"

namespace loupe::git {

class OidcIssuer {
public:
    /// `issuer` without a trailing slash; `http` must outlive the issuer.
    OidcIssuer(const HttpClient& http, std::string issuer, std::chrono::milliseconds timeout,
               std::chrono::milliseconds discovery_retry = std::chrono::seconds(10));

    const std::string& issuer() const { return issuer_; }

    /// The token checked against the issuer's keys (RS256 only): `iss` this issuer, `aud` one
    /// of `audiences`, `exp`, `nbf` and `iat` with a minute of leeway. keys_unavailable when
    /// discovery or the key set failed.
    jose::JwtVerification verify(std::string_view token, const std::vector<std::string>& audiences);

private:
    /// The key cache, discovering the issuer first if need be; nullptr with `why` set when
    /// discovery failed (now or less than `discovery_retry` ago).
    jose::JwksCache* keys(std::string& why);
    std::string discover_jwks_uri() const;

    const HttpClient& http_;
    std::string issuer_;
    jose::JwksCacheOptions cache_options_;
    std::chrono::milliseconds discovery_retry_;
    std::mutex mutex_;
    std::unique_ptr<jose::JwksCache> keys_;
    std::optional<std::chrono::steady_clock::time_point> failed_at_;
    std::string failure_;
};

}  // namespace loupe::git
