#pragma once
// Browser sessions: created from a personal access token or a one-time sign-in link, found
// again from the cookie on every request, revoked at sign-out. Rows hold only token hashes.
// THREADS: thread-safe (state is in the database).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "loupe/auth/identity.hpp"
#include "loupe/db/database.hpp"
#include "loupe/http/request.hpp"
#include "session/session_tokens.hpp"
#include "settings.hpp"
#include "store/sessions.hpp"

namespace loupe::web {

struct CurrentSession {
    std::string token;
    int64_t user_id = 0;
    Principal principal;
};

class SessionManager {
public:
    SessionManager(Database& database, Identity& identity, const WebSettings& settings,
                   std::function<std::string()> public_url);

    /// A new session for `user_id` (bounded by `personal_token_id`'s scope when given); returns
    /// its clear token, for the cookie only.
    std::string create(soci::session& session, int64_t user_id,
                       std::optional<int64_t> personal_token_id, const std::string& user_agent);

    /// The session resolver the core calls for requests without an Authorization header:
    /// nullopt without a session cookie; 401 for a cookie of no live session; 403 for a write
    /// without the session's CSRF token.
    std::optional<Principal> resolve(const Request& request);

    /// The live session of the request's cookie, without the CSRF check (reads).
    std::optional<CurrentSession> current(const Request& request);

    /// The user's live sessions, and the id of the request's own (if it came with one).
    std::vector<sessions::SessionListing> live_sessions(int64_t user_id) const;
    std::optional<int64_t> session_id(const Request& request) const;
    /// Signs the user out of their session `id`; false when they hold no live one with it.
    bool revoke_session(int64_t user_id, int64_t id);
    /// Signs the user out of every session but the request's own; returns how many.
    int revoke_other_sessions(int64_t user_id, const Request& request);

    /// Revokes the request's session; true when there was one.
    bool revoke(const std::string& token);
    int revoke_user(int64_t user_id);

    /// A one-time sign-in link token for `user_id`, valid for login_link_ms.
    std::string issue_login_link(int64_t user_id);
    /// Consumes a sign-in link (inside the caller's transaction): its user, or nullopt.
    std::optional<int64_t> consume_login_link(soci::session& session, const std::string& token);

    /// The page that consumes a link token: <public url>/_loupe/login#link=<token>.
    std::string login_link_url(const std::string& token) const;
    CookieOptions cookie_options() const;
    const WebSettings& settings() const { return settings_; }

    /// Deletes expired and revoked sessions and expired links.
    void delete_stale();

    /// The session token the request's cookie holds (under the name the public URL's scheme
    /// gives, see session_cookie_name), whatever its format.
    std::optional<std::string> cookie_token(const Request& request) const;

private:
    Database& database_;
    Identity& identity_;
    WebSettings settings_;
    std::function<std::string()> public_url_;
};

}  // namespace loupe::web
