#include "authorization_server.hpp"

#include "loupe/crypto/digest.hpp"
#include "loupe/crypto/random.hpp"
#include "loupe/jose/pkce.hpp"
#include "loupe/json.hpp"
#include "loupe/text/strings.hpp"
#include "store/oauth_store.hpp"

namespace loupe::oauth {
namespace {

constexpr int64_t code_ttl_ms = 60'000;
constexpr int64_t access_ttl_ms = 3'600'000;
constexpr int64_t refresh_ttl_ms = 90LL * 24 * 3'600'000;
// CLI 4.x keeps one token and cannot refresh it: its access token lives as long as a refresh
// token does.
constexpr int64_t cli_token_ttl_ms = refresh_ttl_ms;
constexpr std::string_view access_prefix = "argos_oat_";
constexpr std::string_view refresh_prefix = "argos_ort_";

std::string field(const std::map<std::string, std::string>& fields, const std::string& name) {
    const auto found = fields.find(name);
    return found == fields.end() ? std::string() : found->second;
}

OAuthError invalid_grant(std::string description) {
    return OAuthError{400, "invalid_grant", std::move(description)};
}

TokenSet issue_pair(soci::session& session, const store::Grant& grant, int64_t now) {
    TokenSet tokens{std::string(access_prefix) + crypto::random_hex(20),
                    std::string(refresh_prefix) + crypto::random_hex(20), access_ttl_ms / 1000,
                    grant.scope};
    store::store_token(session, tokens.access_token, grant.id, store::TokenKind::access, now,
                       now + access_ttl_ms);
    store::store_token(session, tokens.refresh_token, grant.id, store::TokenKind::refresh, now,
                       now + refresh_ttl_ms);
    return tokens;
}

/// What a code is redeemed with; `redirect_uri` null when the exchange does not carry one
/// (the CLI 4.x exchange: the PKCE verifier alone proves the holder).
struct CodeRedemption {
    std::string code;
    std::string verifier;
    std::string client_id;
    const std::string* redirect_uri = nullptr;
};

// A code is used once, within its minute, by the client it was issued to, with the verifier of
// its challenge; a code presented twice was intercepted and its grant is revoked.
std::variant<store::Grant, OAuthError> spend_code(soci::session& session,
                                                  const CodeRedemption& redemption, int64_t now) {
    const auto stored = store::find_code(session, redemption.code);
    if (!stored) {
        return invalid_grant("Unknown authorization code");
    }
    if (stored->used || !store::use_code(session, redemption.code, now)) {
        store::revoke_grant(session, stored->grant_id, now);
        return invalid_grant("The authorization code was already used");
    }
    auto grant = store::find_grant(session, stored->grant_id);
    if (!grant || grant->revoked || stored->expires_at <= now) {
        return invalid_grant("The authorization code expired");
    }
    if (redemption.client_id != grant->client_id) {
        return invalid_grant("The code was issued to another client");
    }
    if (redemption.redirect_uri != nullptr && *redemption.redirect_uri != stored->redirect_uri) {
        return invalid_grant("redirect_uri differs from the authorization request's");
    }
    if (!crypto::equal_in_constant_time(jose::s256_challenge(redemption.verifier),
                                        stored->code_challenge)) {
        return invalid_grant("The code_verifier does not match the code_challenge");
    }
    return *grant;
}

}  // namespace

std::string AuthorizationServer::approve(int64_t user_id, const std::string& client_id,
                                         const std::string& scope, const std::string& redirect_uri,
                                         const std::string& code_challenge) {
    std::string code = crypto::random_hex(32);
    database_.transaction([&](soci::session& session) {
        const int64_t now = now_ms();
        const int64_t grant_id = store::create_grant(session, user_id, client_id, scope, now);
        store::store_code(session, code, grant_id, redirect_uri, code_challenge, now + code_ttl_ms);
    });
    return code;
}

std::variant<TokenSet, OAuthError> AuthorizationServer::token(
    const std::map<std::string, std::string>& fields) {
    const std::string grant_type = field(fields, "grant_type");
    if (grant_type == "authorization_code") {
        return redeem_code(fields);
    }
    if (grant_type == "refresh_token") {
        return rotate_refresh_token(fields);
    }
    return OAuthError{400, "unsupported_grant_type",
                      "grant_type must be authorization_code or refresh_token"};
}

std::variant<TokenSet, OAuthError> AuthorizationServer::redeem_code(
    const std::map<std::string, std::string>& fields) {
    const std::string code = field(fields, "code");
    const std::string verifier = field(fields, "code_verifier");
    if (code.empty() || verifier.empty()) {
        return OAuthError{400, "invalid_request", "code and code_verifier are required"};
    }
    const std::string redirect_uri = field(fields, "redirect_uri");
    return database_.transaction([&](soci::session& session) -> std::variant<TokenSet, OAuthError> {
        const int64_t now = now_ms();
        auto grant =
            spend_code(session, {code, verifier, field(fields, "client_id"), &redirect_uri}, now);
        if (auto* error = std::get_if<OAuthError>(&grant)) {
            return *error;
        }
        return issue_pair(session, std::get<store::Grant>(grant), now);
    });
}

std::variant<std::string, OAuthError> AuthorizationServer::exchange_cli_code(
    const std::string& code, const std::string& verifier) {
    if (code.empty() || verifier.empty()) {
        return OAuthError{400, "invalid_request", "code and code_verifier are required"};
    }
    return database_.transaction(
        [&](soci::session& session) -> std::variant<std::string, OAuthError> {
            const int64_t now = now_ms();
            auto grant = spend_code(session, {code, verifier, "argos-cli", nullptr}, now);
            if (auto* error = std::get_if<OAuthError>(&grant)) {
                return *error;
            }
            std::string token = std::string(access_prefix) + crypto::random_hex(20);
            store::store_token(session, token, std::get<store::Grant>(grant).id,
                               store::TokenKind::access, now, now + cli_token_ttl_ms);
            return token;
        });
}

std::variant<TokenSet, OAuthError> AuthorizationServer::rotate_refresh_token(
    const std::map<std::string, std::string>& fields) {
    const std::string presented = field(fields, "refresh_token");
    if (presented.empty()) {
        return OAuthError{400, "invalid_request", "refresh_token is required"};
    }
    return database_.transaction([&](soci::session& session) -> std::variant<TokenSet, OAuthError> {
        const int64_t now = now_ms();
        const auto stored = store::find_token(session, presented);
        if (!stored || stored->kind != store::TokenKind::refresh) {
            return invalid_grant("Unknown or revoked refresh token");
        }
        // A refresh token presented twice leaked: the grant and all its tokens end.
        if (stored->used || !store::use_token(session, presented, now)) {
            store::revoke_grant(session, stored->grant_id, now);
            return invalid_grant("The refresh token was already used; sign in again");
        }
        const auto grant = store::find_grant(session, stored->grant_id);
        if (!grant || grant->revoked || stored->expires_at <= now) {
            return invalid_grant("The refresh token expired; sign in again");
        }
        if (field(fields, "client_id") != grant->client_id) {
            return invalid_grant("The refresh token was issued to another client");
        }
        return issue_pair(session, *grant, now);
    });
}

void AuthorizationServer::revoke(const std::string& token, const std::string& client_id) {
    database_.transaction([&](soci::session& session) {
        const auto stored = store::find_token(session, token);
        if (!stored) {
            return;
        }
        const auto grant = store::find_grant(session, stored->grant_id);
        if (grant && grant->client_id == client_id) {
            store::revoke_grant(session, grant->id, now_ms());
        }
    });
}

std::optional<AuthorizationServer::AccessTokenOwner> AuthorizationServer::owner_of_access_token(
    const std::string& token) {
    auto session = database_.session();
    const auto stored = store::find_token(*session, token);
    if (!stored || stored->kind != store::TokenKind::access || stored->expires_at <= now_ms()) {
        return std::nullopt;
    }
    const auto grant = store::find_grant(*session, stored->grant_id);
    if (!grant || grant->revoked) {
        return std::nullopt;
    }
    AccessTokenOwner owner{grant->user_id, {}};
    for (const auto scope : split(grant->scope, ' ')) {
        if (!scope.empty()) {
            owner.scopes.emplace_back(scope);
        }
    }
    return owner;
}

}  // namespace loupe::oauth
