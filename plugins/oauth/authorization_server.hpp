#pragma once
// The authorization server's rules (OAuth 2.1 with PKCE, for the clients of oauth_clients.hpp):
//  - an approved request becomes a grant and a one-use authorization code (valid 1 minute);
//  - the code, with the verifier of its PKCE challenge, the same client and redirect URI,
//    becomes an access token (`argos_oat_`, 1 hour) and a refresh token (`argos_ort_`, 90 days);
//  - a refresh token is used once: it becomes a new pair; used again (it leaked), it revokes
//    the grant, and so does a code used twice;
//  - revoking either token ends the grant and every token of it;
//  - CLI 4.x's `argos login` (GET /auth/cli, POST /auth/cli/token) gets one 90-day access
//    token for its code instead of a pair.
// THREADS: thread-safe (every call opens its own transaction).

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "loupe/db/database.hpp"

namespace loupe::oauth {

struct TokenSet {
    std::string access_token;
    std::string refresh_token;
    int64_t expires_in_s = 0;
    std::string scope;
};

/// An OAuth error answer: `error` is the RFC 6749 code, `status` 400 or 401.
struct OAuthError {
    int status = 400;
    std::string error;
    std::string description;
};

class AuthorizationServer {
public:
    explicit AuthorizationServer(Database& database) : database_(database) {}

    /// A new grant of `scope` for `user_id`, and its authorization code.
    std::string approve(int64_t user_id, const std::string& client_id, const std::string& scope,
                        const std::string& redirect_uri, const std::string& code_challenge);

    /// The token endpoint: `grant_type` authorization_code or refresh_token, the other fields
    /// as RFC 6749 names them.
    std::variant<TokenSet, OAuthError> token(const std::map<std::string, std::string>& fields);

    /// The CLI 4.x exchange (`POST /auth/cli/token`): a code issued to `argos-cli` and the
    /// verifier of its challenge become one access token valid 90 days (that client keeps one
    /// token and cannot refresh it). The code's rules are the token endpoint's, without the
    /// redirect URI, which that exchange does not send.
    std::variant<std::string, OAuthError> exchange_cli_code(const std::string& code,
                                                            const std::string& verifier);

    /// The revocation endpoint: ends the grant of `token` (an unknown token is not an error).
    void revoke(const std::string& token, const std::string& client_id);

    /// Who a live access token acts for, and with which scopes.
    struct AccessTokenOwner {
        int64_t user_id = 0;
        std::vector<std::string> scopes;
    };
    /// The owner of a live access token; nullopt when unknown, expired or revoked.
    std::optional<AccessTokenOwner> owner_of_access_token(const std::string& token);

private:
    std::variant<TokenSet, OAuthError> redeem_code(
        const std::map<std::string, std::string>& fields);
    std::variant<TokenSet, OAuthError> rotate_refresh_token(
        const std::map<std::string, std::string>& fields);

    Database& database_;
};

}  // namespace loupe::oauth
