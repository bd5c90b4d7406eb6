#pragma once
// Grants, authorization codes and tokens of the authorization server. Every secret is stored
// as its SHA-256 only. Each function joins the caller's transaction.

#include <soci/soci.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace loupe::oauth::store {

struct Grant {
    int64_t id = 0;
    int64_t user_id = 0;
    std::string client_id;
    std::string scope;
    bool revoked = false;
};

int64_t create_grant(soci::session& session, int64_t user_id, const std::string& client_id,
                     const std::string& scope, int64_t now);
std::optional<Grant> find_grant(soci::session& session, int64_t grant_id);
/// A grant its person still has tokens of, as the settings page lists it.
struct LiveGrant {
    int64_t id = 0;
    std::string client_id;
    std::string scope;
    int64_t created_at = 0;
    int64_t last_token_at = 0;  ///< when a token was last issued under it
};
/// The user's unrevoked grants that still hold a live token, newest first.
std::vector<LiveGrant> live_grants(soci::session& session, int64_t user_id, int64_t now);

/// Ends the grant and, with it, every token issued under it.
void revoke_grant(soci::session& session, int64_t grant_id, int64_t now);

void store_code(soci::session& session, const std::string& code, int64_t grant_id,
                const std::string& redirect_uri, const std::string& code_challenge,
                int64_t expires_at);

struct StoredCode {
    int64_t grant_id = 0;
    std::string redirect_uri;
    std::string code_challenge;
    int64_t expires_at = 0;
    bool used = false;
};
std::optional<StoredCode> find_code(soci::session& session, const std::string& code);
/// Marks the code used; false when another request used it first.
bool use_code(soci::session& session, const std::string& code, int64_t now);

enum class TokenKind { access, refresh };
void store_token(soci::session& session, const std::string& token, int64_t grant_id, TokenKind kind,
                 int64_t now, int64_t expires_at);

struct StoredToken {
    int64_t grant_id = 0;
    TokenKind kind = TokenKind::access;
    int64_t expires_at = 0;
    bool used = false;
};
std::optional<StoredToken> find_token(soci::session& session, const std::string& token);
/// Marks a refresh token used; false when another request used it first.
bool use_token(soci::session& session, const std::string& token, int64_t now);

}  // namespace loupe::oauth::store
