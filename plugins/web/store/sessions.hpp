#pragma once
// The web_sessions rows. A session is found by the SHA-256 of its cookie token; the clear token
// is never stored.

#include <soci/soci.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace loupe::web::sessions {

struct NewSession {
    std::string token_hash;
    int64_t user_id = 0;
    std::optional<int64_t> personal_token_id;  ///< signed in with this PAT: it bounds the scope
    int64_t expires_at = 0;
    std::string user_agent;
};

struct StoredSession {
    int64_t id = 0;
    int64_t user_id = 0;
    std::optional<int64_t> personal_token_id;
    int64_t expires_at = 0;
    int64_t last_seen_at = 0;
};

/// A live session as its person sees it in the settings page.
struct SessionListing {
    int64_t id = 0;
    std::string user_agent;
    int64_t created_at = 0;
    int64_t last_seen_at = 0;
    int64_t expires_at = 0;
};

int64_t insert(soci::session& session, const NewSession& row, int64_t now);
/// The user's live sessions, most recently seen first.
std::vector<SessionListing> list_live(soci::session& session, int64_t user_id, int64_t now);
/// Revokes the user's live session `id`; false when they hold none with that id.
bool revoke_id(soci::session& session, int64_t user_id, int64_t id, int64_t now);
/// Revokes every live session of the user but `keep_id` (none: all); returns how many.
int revoke_others(soci::session& session, int64_t user_id, std::optional<int64_t> keep_id,
                  int64_t now);
/// The unrevoked, unexpired session with this token hash.
std::optional<StoredSession> find_live(soci::session& session, const std::string& token_hash,
                                       int64_t now);
void touch(soci::session& session, int64_t id, int64_t now);
/// Revokes the session with this token hash; true when one was live.
bool revoke(soci::session& session, const std::string& token_hash, int64_t now);
/// Revokes every live session of a user; returns how many.
int revoke_user(soci::session& session, int64_t user_id, int64_t now);
/// Deletes sessions that expired or were revoked before `before`.
void delete_stale(soci::session& session, int64_t before);

}  // namespace loupe::web::sessions
