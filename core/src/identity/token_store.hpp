#pragma once
// The `tokens` and `token_scopes` rows: written by the identity store, read by the
// authenticator. Only SHA-256 hashes and a visible prefix are stored.

#include <soci/soci.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "loupe/auth/identity.hpp"
#include "loupe/auth/principal.hpp"

namespace loupe::token_store {

struct NewToken {
    std::string kind;   ///< project | personal | short_lived
    std::string token;  ///< the clear token (hashed before it is stored)
    std::optional<int64_t> project_id;
    std::optional<int64_t> user_id;
    std::optional<int64_t> expires_at;
    std::optional<std::string> bound_commit;
    std::optional<std::string> bound_branch;
    bool untrusted_head = false;
    std::optional<std::string> name;  ///< a personal token's name
};

/// Inserts the token; returns its id.
int64_t insert(soci::session& session, const NewToken& token, int64_t now);
void add_scope(soci::session& session, int64_t token_id, int64_t account_id);

struct StoredToken {
    int64_t id = 0;
    std::string kind;
    std::optional<int64_t> project_id;
    std::optional<int64_t> project_account_id;
    std::optional<int64_t> user_id;
    std::optional<int64_t> expires_at;
    std::optional<std::string> bound_commit;
    std::optional<int64_t> last_used_at;
    std::optional<std::string> bound_branch;
    bool untrusted_head = false;
};

/// The unrevoked token with this clear value, whatever its expiry.
std::optional<StoredToken> find_unrevoked(soci::session& session, const std::string& token);

/// The token's scope entries that still hold: the user's own personal account
/// and the teams the user still belongs to, by slug.
std::vector<AccountRef> valid_scope(soci::session& session, int64_t token_id, int64_t user_id);

/// True while the personal token `token_id` of `user_id` is neither revoked nor expired.
bool is_live_personal(soci::session& session, int64_t token_id, int64_t user_id, int64_t now);

/// Every account `user_id` belongs to: the personal account and the teams, by slug.
std::vector<AccountRef> user_accounts(soci::session& session, int64_t user_id);

/// The user's live personal tokens, newest first, with their scopes.
std::vector<PersonalTokenInfo> live_personal_tokens(soci::session& session, int64_t user_id,
                                                    int64_t now);

/// Revokes the user's live personal token `token_id`; false when there is none.
bool revoke_personal(soci::session& session, int64_t user_id, int64_t token_id, int64_t now);

/// The project's live project tokens, newest first.
std::vector<ProjectTokenInfo> live_project_tokens(soci::session& session, int64_t project_id);

/// Revokes the project's token `token_id`; false when there is no such live one.
bool revoke_project(soci::session& session, int64_t project_id, int64_t token_id, int64_t now);

void mark_used(soci::session& session, int64_t token_id, int64_t now);

/// Removes the expired short-lived tokens of a project (they accumulate otherwise).
void delete_expired_short_lived(soci::session& session, int64_t project_id, int64_t now);

}  // namespace loupe::token_store
