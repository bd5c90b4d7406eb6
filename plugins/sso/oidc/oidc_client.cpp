#include "oidc/oidc_client.hpp"

#include "loupe/crypto/encoding.hpp"

namespace loupe::sso {
namespace {

/// A failed discovery is tried again after this pause, not at every sign-in.
constexpr auto discovery_retry = std::chrono::seconds(30);

std::string string_field(const Json& document, const char* name) {
    const auto found = document.find(name);
    return found != document.end() && found->is_string() ? found->get<std::string>()
                                                         : std::string();
}

bool is_http_url(const std::string& url) {
    return url.starts_with("https://") || url.starts_with("http://");
}

std::string without_trailing_slash(std::string url) {
    while (url.ends_with('/')) {
        url.pop_back();
    }
    return url;
}

}  // namespace

OidcClient::OidcClient(const HttpClient& http, OidcProvider provider)
    : http_(http), provider_(std::move(provider)) {
    call_options_.connect_timeout = std::chrono::seconds(5);
    call_options_.io_timeout = std::chrono::seconds(10);
    call_options_.max_response_bytes = std::size_t{256} * 1024;
}

ProviderEndpoints OidcClient::endpoints() {
    std::lock_guard lock(mutex_);
    if (endpoints_) {
        return *endpoints_;
    }
    const auto now = std::chrono::steady_clock::now();
    if (failed_at_ && now - *failed_at_ < discovery_retry) {
        throw ProviderUnavailable(failure_);
    }
    const auto url = provider_.issuer + "/.well-known/openid-configuration";
    try {
        HttpResponse response;
        try {
            response = http_.get_json(url, {}, call_options_);
        } catch (const HttpTransportError& error) {
            throw ProviderUnavailable(url + ": " + error.what());
        }
        if (!response.ok()) {
            throw ProviderUnavailable(url + " answered " + std::to_string(response.status));
        }
        const auto document = response.json();
        if (!document || !document->is_object()) {
            throw ProviderUnavailable(url + " answered no JSON object");
        }
        // OpenID Connect Discovery: the document's issuer is exactly the configured issuer.
        if (without_trailing_slash(string_field(*document, "issuer")) != provider_.issuer) {
            throw ProviderUnavailable(url + " names another issuer (\"" +
                                      string_field(*document, "issuer") + "\")");
        }
        ProviderEndpoints found{string_field(*document, "authorization_endpoint"),
                                string_field(*document, "token_endpoint"),
                                string_field(*document, "jwks_uri")};
        if (!is_http_url(found.authorization_endpoint) || !is_http_url(found.token_endpoint) ||
            !is_http_url(found.jwks_uri)) {
            throw ProviderUnavailable(
                url + " lacks an http(s) authorization_endpoint, token_endpoint or jwks_uri");
        }
        jose::JwksCacheOptions options;
        options.http = call_options_;
        keys_ = std::make_unique<jose::JwksCache>(http_, found.jwks_uri, options);
        endpoints_ = found;
        failed_at_.reset();
        return found;
    } catch (const ProviderUnavailable& error) {
        failed_at_ = now;
        failure_ = error.what();
        throw;
    }
}

jose::JwksCache& OidcClient::keys() {
    endpoints();
    std::lock_guard lock(mutex_);
    return *keys_;
}

std::string OidcClient::authorization_url(const std::string& redirect_uri, const std::string& state,
                                          const std::string& nonce,
                                          const std::string& code_challenge) {
    const auto found = endpoints();
    std::string scope;
    for (const auto& name : provider_.scopes) {
        scope += (scope.empty() ? "" : " ") + name;
    }
    const char separator = found.authorization_endpoint.find('?') == std::string::npos ? '?' : '&';
    return found.authorization_endpoint + separator +
           "response_type=code&client_id=" + url_query_component(provider_.client_id) +
           "&redirect_uri=" + url_query_component(redirect_uri) +
           "&scope=" + url_query_component(scope) + "&state=" + url_query_component(state) +
           "&nonce=" + url_query_component(nonce) +
           "&code_challenge=" + url_query_component(code_challenge) + "&code_challenge_method=S256";
}

Json OidcClient::redeem(const std::string& code, const std::string& code_verifier,
                        const std::string& redirect_uri, const std::string&) {
    return redeem(code, code_verifier, redirect_uri);
}

Json OidcClient::redeem(const std::string& code, const std::string& code_verifier,
                        const std::string& redirect_uri) {
    const auto found = endpoints();
    std::string body = "grant_type=authorization_code&code=" + url_query_component(code) +
                       "&redirect_uri=" + url_query_component(redirect_uri) +
                       "&code_verifier=" + url_query_component(code_verifier);
    HttpHeaders headers{{"Content-Type", "application/x-www-form-urlencoded"},
                        {"Accept", "application/json"}};
    if (provider_.client_secret.empty()) {
        body += "&client_id=" + url_query_component(provider_.client_id);
    } else {
        // client_secret_basic: the id and secret form-encoded, then Basic-encoded (RFC 6749).
        headers.emplace_back(
            "Authorization",
            "Basic " + crypto::base64_encode(url_query_component(provider_.client_id) + ":" +
                                             url_query_component(provider_.client_secret)));
    }
    HttpResponse response;
    try {
        auto options = call_options_;
        options.idempotent = false;
        response = http_.send(HttpRequest{.method = "POST",
                                          .url = found.token_endpoint,
                                          .headers = std::move(headers),
                                          .body = body},
                              options);
    } catch (const HttpTransportError& error) {
        throw ProviderUnavailable(found.token_endpoint + ": " + error.what());
    }
    const auto answer = response.json();
    if (response.status >= 500) {
        throw ProviderUnavailable(found.token_endpoint + " answered " +
                                  std::to_string(response.status));
    }
    if (!response.ok() || !answer || !answer->is_object()) {
        const std::string error = answer && answer->is_object()
                                      ? string_field(*answer, "error_description").empty()
                                            ? string_field(*answer, "error")
                                            : string_field(*answer, "error_description")
                                      : std::string();
        throw SignInRejected("The provider refused the sign-in" +
                             (error.empty() ? std::string() : ": " + error));
    }
    const std::string id_token = string_field(*answer, "id_token");
    if (id_token.empty()) {
        throw SignInRejected("The provider sent no ID token");
    }
    const jose::JwtExpectations expect{.issuer = provider_.issuer,
                                       .audiences = {provider_.client_id}};
    const auto checked = keys().verify(id_token, expect);
    if (!checked) {
        if (checked.error().failure == jose::JwtFailure::keys_unavailable) {
            throw ProviderUnavailable(checked.error().message);
        }
        throw SignInRejected("The provider's ID token does not verify (" + checked.error().message +
                             ")");
    }
    return checked.claims();
}

}  // namespace loupe::sso
