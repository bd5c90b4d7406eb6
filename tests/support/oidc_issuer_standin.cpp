// The stand-in's OpenID Connect issuers of CI ID tokens (see provider_standin.hpp): discovery,
// a JWKS of the keys the test publishes, GitHub Actions' ID token request, and a signing
// endpoint for GitLab's `id_tokens` (which GitLab hands the job as a variable). Tokens are
// signed with Poco::JWT, independently of the JOSE code under test.
#include <Poco/Base64Encoder.h>
#include <Poco/Crypto/RSAKey.h>
#include <Poco/JSON/Parser.h>
#include <Poco/JWT/Signer.h>
#include <Poco/JWT/Token.h>
#include <Poco/Net/HTTPServerRequest.h>
#include <Poco/URI.h>

#include <ctime>
#include <sstream>

#include "support/provider_standin.hpp"

namespace loupe::test {
namespace {

using nlohmann::json;

std::string base64url(const std::vector<unsigned char>& bytes) {
    std::ostringstream encoded;
    Poco::Base64Encoder encoder(encoded, Poco::BASE64_URL_ENCODING | Poco::BASE64_NO_PADDING);
    encoder.write(reinterpret_cast<const char*>(bytes.data()),
                  static_cast<std::streamsize>(bytes.size()));
    encoder.close();
    return encoded.str();
}

std::string query_value(const Poco::URI& uri, const std::string& name) {
    for (const auto& [key, value] : uri.getQueryParameters()) {
        if (key == name) {
            return value;
        }
    }
    return "";
}

}  // namespace

std::string ProviderStandin::oidc_issuer(const std::string& kind) const {
    return kind == "gitlab" ? base_url() + "/gitlab" : base_url() + "/oidc/github";
}

Poco::SharedPtr<Poco::Crypto::RSAKey> ProviderStandin::oidc_key(const std::string& kid) {
    std::lock_guard lock(mutex_);
    auto& key = oidc_keys_[kid];
    if (!key) {
        key = new Poco::Crypto::RSAKey(Poco::Crypto::RSAKey::KL_2048,
                                       Poco::Crypto::RSAKey::EXP_LARGE);
    }
    return key;
}

std::string ProviderStandin::sign_id_token(const std::string& kind, const json& claims,
                                           const std::string& kid) {
    std::string signing_kid = kid;
    if (signing_kid.empty()) {
        std::lock_guard lock(mutex_);
        const auto& oidc = data_["oidc"];
        signing_kid = oidc.is_object() ? oidc.value("signWith", "k1") : "k1";
    }
    const auto now = static_cast<int64_t>(std::time(nullptr));
    json all{{"iss", oidc_issuer(kind)}, {"iat", now}, {"nbf", now}, {"exp", now + 300}};
    all.update(claims);
    Poco::JWT::Token token;
    token.setType("JWT");
    token.header().set("kid", signing_kid);
    Poco::JSON::Parser parser;
    token.payload() = *parser.parse(all.dump()).extract<Poco::JSON::Object::Ptr>();
    Poco::JWT::Signer signer(oidc_key(signing_kid));
    return signer.sign(token, Poco::JWT::Signer::ALGO_RS256);
}

ProviderStandin::Reply ProviderStandin::oidc(const std::string& kind, const std::string& path,
                                             Poco::Net::HTTPServerRequest& request) {
    const std::string jwks_path = kind == "gitlab" ? "/oauth/discovery/keys" : "/.well-known/jwks";
    if (path == "/.well-known/openid-configuration") {
        counted("oidc_discovery");
        return {200, json{{"issuer", oidc_issuer(kind)},
                          {"jwks_uri", oidc_issuer(kind) + jwks_path},
                          {"id_token_signing_alg_values_supported", {"RS256"}}}};
    }
    if (path == jwks_path) {
        counted("oidc_jwks");
        json published = json::array();
        {
            std::lock_guard lock(mutex_);
            const auto& oidc = data_["oidc"];
            if (oidc.is_object() && oidc.contains("keys")) {
                published = oidc["keys"];
            }
        }
        json keys = json::array();
        for (const auto& kid : published) {
            const auto key = oidc_key(kid.get<std::string>());
            keys.push_back({{"kty", "RSA"},
                            {"kid", kid},
                            {"use", "sig"},
                            {"alg", "RS256"},
                            {"n", base64url(key->modulus())},
                            {"e", base64url(key->encryptionExponent())}});
        }
        return {200, json{{"keys", keys}}};
    }
    if (kind == "github" && path == "/token") {
        // GitHub Actions: ACTIONS_ID_TOKEN_REQUEST_URL with ?audience=, authorized by
        // ACTIONS_ID_TOKEN_REQUEST_TOKEN; the answer is {"value": <ID token>}.
        counted("oidc_token");
        const auto authorization = request.has("Authorization") ? request.get("Authorization") : "";
        json claims;
        {
            std::lock_guard lock(mutex_);
            const auto& requests = data_["oidc"]["requests"];
            const auto bearer = authorization.starts_with("Bearer ") ? authorization.substr(7) : "";
            if (!requests.is_object() || !requests.contains(bearer)) {
                return {401, json{{"message", "Bad credentials"}}};
            }
            claims = requests[bearer];
        }
        const Poco::URI uri(request.getURI());
        const auto audience = query_value(uri, "audience");
        if (!audience.empty()) {
            claims["aud"] = audience;
        }
        return {200, json{{"count", 1}, {"value", sign_id_token("github", claims)}}};
    }
    return {404, json{{"message", "Not Found"}}};
}

}  // namespace loupe::test
