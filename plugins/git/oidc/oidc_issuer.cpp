#include "oidc/oidc_issuer.hpp"

#include "settings/git_settings.hpp"

namespace loupe::git {

OidcIssuer::OidcIssuer(const HttpClient& http, std::string issuer,
                       std::chrono::milliseconds timeout, std::chrono::milliseconds discovery_retry)
    : http_(http), issuer_(std::move(issuer)), discovery_retry_(discovery_retry) {
    cache_options_.http.connect_timeout = timeout;
    cache_options_.http.io_timeout = timeout;
    cache_options_.http.max_attempts = 1;
}

std::string OidcIssuer::discover_jwks_uri() const {
    const auto url = issuer_ + "/.well-known/openid-configuration";
    HttpResponse response;
    try {
        response = http_.get_json(url, {}, cache_options_.http);
    } catch (const HttpTransportError& error) {
        throw jose::JwksUnavailable(url + ": " + error.what());
    }
    if (!response.ok()) {
        throw jose::JwksUnavailable(url + " answered " + std::to_string(response.status));
    }
    const auto document = response.json();
    if (!document || !document->is_object()) {
        throw jose::JwksUnavailable(url + " answered no JSON object");
    }
    // OpenID Connect Discovery: the document's issuer is exactly the issuer asked about.
    const auto issuer = document->value("issuer", Json()).is_string()
                            ? document->value("issuer", std::string())
                            : std::string();
    if (without_trailing_slash(issuer) != issuer_) {
        throw jose::JwksUnavailable(url + " names another issuer (\"" + issuer + "\")");
    }
    auto jwks_uri = document->value("jwks_uri", Json()).is_string()
                        ? document->value("jwks_uri", std::string())
                        : std::string();
    if (!jwks_uri.starts_with("https://") && !jwks_uri.starts_with("http://")) {
        throw jose::JwksUnavailable(url + " names no http(s) jwks_uri");
    }
    return jwks_uri;
}

jose::JwksCache* OidcIssuer::keys(std::string& why) {
    std::lock_guard lock(mutex_);
    if (keys_) {
        return keys_.get();
    }
    const auto now = std::chrono::steady_clock::now();
    if (failed_at_ && now - *failed_at_ < discovery_retry_) {
        why = failure_;
        return nullptr;
    }
    try {
        keys_ = std::make_unique<jose::JwksCache>(http_, discover_jwks_uri(), cache_options_);
        failed_at_.reset();
        return keys_.get();
    } catch (const jose::JwksUnavailable& error) {
        failed_at_ = now;
        failure_ = error.what();
        why = failure_;
        return nullptr;
    }
}

jose::JwtVerification OidcIssuer::verify(std::string_view token,
                                         const std::vector<std::string>& audiences) {
    const jose::JwtExpectations expect{
        .issuer = issuer_, .audiences = audiences, .algorithms = {jose::Algorithm::rs256}};
    if (!jose::peek_jwt_header(token)) {
        // Not a JWT at all: refused without asking the issuer anything.
        return jose::verify_jwt(token, jose::JsonWebKeySet(), expect);
    }
    std::string why;
    auto* cache = keys(why);
    if (cache == nullptr) {
        return jose::JwtVerification::failed(jose::JwtFailure::keys_unavailable, why);
    }
    return cache->verify(token, expect);
}

}  // namespace loupe::git
