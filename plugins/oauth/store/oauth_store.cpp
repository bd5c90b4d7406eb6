#include "store/oauth_store.hpp"

#include "loupe/crypto/digest.hpp"
#include "loupe/db/row_reader.hpp"

namespace loupe::oauth::store {
namespace {

std::string hash_of(const std::string& secret) {
    return crypto::sha256_hex(secret);
}

const char* kind_name(TokenKind kind) {
    return kind == TokenKind::access ? "access" : "refresh";
}

/// Runs an UPDATE that must change exactly one row to win.
bool changed_one_row(soci::statement& statement) {
    statement.execute(true);
    return statement.get_affected_rows() == 1;
}

}  // namespace

int64_t create_grant(soci::session& session, int64_t user_id, const std::string& client_id,
                     const std::string& scope, int64_t now) {
    long long id = 0;
    session << "INSERT INTO oauth_grants (user_id, client_id, scope, created_at) VALUES (:user, "
               ":client, :scope, :now) RETURNING id",
        soci::use(user_id), soci::use(client_id), soci::use(scope), soci::use(now), soci::into(id);
    return id;
}

std::optional<Grant> find_grant(soci::session& session, int64_t grant_id) {
    Grant grant;
    long long user_id = 0;
    long long revoked_at = 0;
    soci::indicator revoked = soci::i_null;
    session << "SELECT user_id, client_id, scope, revoked_at FROM oauth_grants WHERE id = :id",
        soci::use(grant_id), soci::into(user_id), soci::into(grant.client_id),
        soci::into(grant.scope), soci::into(revoked_at, revoked);
    if (!session.got_data()) {
        return std::nullopt;
    }
    grant.id = grant_id;
    grant.user_id = user_id;
    grant.revoked = revoked == soci::i_ok;
    return grant;
}

std::vector<LiveGrant> live_grants(soci::session& session, int64_t user_id, int64_t now) {
    soci::rowset<soci::row> rows =
        (session.prepare << "SELECT g.id, g.client_id, g.scope, g.created_at, "
                            "MAX(t.created_at) AS last_token_at FROM oauth_grants g "
                            "JOIN oauth_tokens t ON t.grant_id = g.id "
                            "WHERE g.user_id = :user AND g.revoked_at IS NULL AND "
                            "t.expires_at > :now GROUP BY g.id, g.client_id, g.scope, "
                            "g.created_at ORDER BY g.created_at DESC, g.id DESC",
         soci::use(user_id), soci::use(now));
    std::vector<LiveGrant> grants;
    for (const auto& row : rows) {
        const RowReader read(row);
        grants.push_back({read.int64("id"), read.text("client_id"), read.text("scope"),
                          read.int64("created_at"), read.int64("last_token_at")});
    }
    return grants;
}

void revoke_grant(soci::session& session, int64_t grant_id, int64_t now) {
    session << "UPDATE oauth_grants SET revoked_at = :now WHERE id = :id AND revoked_at IS NULL",
        soci::use(now), soci::use(grant_id);
    session << "DELETE FROM oauth_tokens WHERE grant_id = :id", soci::use(grant_id);
}

void store_code(soci::session& session, const std::string& code, int64_t grant_id,
                const std::string& redirect_uri, const std::string& code_challenge,
                int64_t expires_at) {
    const std::string code_hash = hash_of(code);
    session << "INSERT INTO oauth_codes (code_hash, grant_id, redirect_uri, code_challenge, "
               "expires_at) VALUES (:hash, :grant, :redirect, :challenge, :expires)",
        soci::use(code_hash), soci::use(grant_id), soci::use(redirect_uri),
        soci::use(code_challenge), soci::use(expires_at);
}

std::optional<StoredCode> find_code(soci::session& session, const std::string& code) {
    const std::string code_hash = hash_of(code);
    StoredCode stored;
    long long grant_id = 0;
    long long expires_at = 0;
    long long used_at = 0;
    soci::indicator used = soci::i_null;
    session << "SELECT grant_id, redirect_uri, code_challenge, expires_at, used_at FROM "
               "oauth_codes WHERE code_hash = :hash",
        soci::use(code_hash), soci::into(grant_id), soci::into(stored.redirect_uri),
        soci::into(stored.code_challenge), soci::into(expires_at), soci::into(used_at, used);
    if (!session.got_data()) {
        return std::nullopt;
    }
    stored.grant_id = grant_id;
    stored.expires_at = expires_at;
    stored.used = used == soci::i_ok;
    return stored;
}

bool use_code(soci::session& session, const std::string& code, int64_t now) {
    const std::string code_hash = hash_of(code);
    soci::statement update = (session.prepare << "UPDATE oauth_codes SET used_at = :now WHERE "
                                                 "code_hash = :hash AND used_at IS NULL",
                              soci::use(now), soci::use(code_hash));
    return changed_one_row(update);
}

void store_token(soci::session& session, const std::string& token, int64_t grant_id, TokenKind kind,
                 int64_t now, int64_t expires_at) {
    const std::string token_hash = hash_of(token);
    const std::string kind_text = kind_name(kind);
    session << "INSERT INTO oauth_tokens (token_hash, grant_id, kind, created_at, expires_at) "
               "VALUES (:hash, :grant, :kind, :now, :expires)",
        soci::use(token_hash), soci::use(grant_id), soci::use(kind_text), soci::use(now),
        soci::use(expires_at);
}

std::optional<StoredToken> find_token(soci::session& session, const std::string& token) {
    const std::string token_hash = hash_of(token);
    StoredToken stored;
    long long grant_id = 0;
    long long expires_at = 0;
    long long used_at = 0;
    std::string kind;
    soci::indicator used = soci::i_null;
    session << "SELECT grant_id, kind, expires_at, used_at FROM oauth_tokens WHERE token_hash = "
               ":hash",
        soci::use(token_hash), soci::into(grant_id), soci::into(kind), soci::into(expires_at),
        soci::into(used_at, used);
    if (!session.got_data()) {
        return std::nullopt;
    }
    stored.grant_id = grant_id;
    stored.kind = kind == "access" ? TokenKind::access : TokenKind::refresh;
    stored.expires_at = expires_at;
    stored.used = used == soci::i_ok;
    return stored;
}

bool use_token(soci::session& session, const std::string& token, int64_t now) {
    const std::string token_hash = hash_of(token);
    soci::statement update = (session.prepare << "UPDATE oauth_tokens SET used_at = :now WHERE "
                                                 "token_hash = :hash AND used_at IS NULL",
                              soci::use(now), soci::use(token_hash));
    return changed_one_row(update);
}

}  // namespace loupe::oauth::store
