#include "session/session_manager.hpp"

#include "loupe/http/http_error.hpp"
#include "loupe/json.hpp"
#include "store/login_links.hpp"
#include "store/sessions.hpp"

namespace loupe::web {
namespace {

/// last_seen_at is written at most this often per session, so reads rarely write.
constexpr int64_t touch_resolution_ms = 60'000;

HttpError session_ended() {
    return HttpError::unauthorized(
        "Your session has ended (expired or signed out). Sign in again.");
}

}  // namespace

SessionManager::SessionManager(Database& database, Identity& identity, const WebSettings& settings,
                               std::function<std::string()> public_url)
    : database_(database),
      identity_(identity),
      settings_(settings),
      public_url_(std::move(public_url)) {}

std::string SessionManager::create(soci::session& session, int64_t user_id,
                                   std::optional<int64_t> personal_token_id,
                                   const std::string& user_agent) {
    const std::string token = random_token();
    const int64_t now = now_ms();
    sessions::NewSession row;
    row.token_hash = token_hash(token);
    row.user_id = user_id;
    row.personal_token_id = personal_token_id;
    row.expires_at = now + settings_.session_ms;
    row.user_agent = user_agent.substr(0, 300);
    sessions::insert(session, row, now);
    return token;
}

std::optional<std::string> SessionManager::cookie_token(const Request& request) const {
    const auto header = request.header("Cookie");
    if (!header) {
        return std::nullopt;
    }
    return cookie_value(*header, session_cookie_name(is_https(public_url_())));
}

std::optional<CurrentSession> SessionManager::current(const Request& request) {
    const auto token = cookie_token(request);
    if (!token || !is_token_format(*token)) {
        return std::nullopt;
    }
    const int64_t now = now_ms();
    std::optional<sessions::StoredSession> stored;
    {
        auto session = database_.session();
        stored = sessions::find_live(*session, token_hash(*token), now);
    }
    if (!stored) {
        return std::nullopt;
    }
    auto principal = identity_.user_principal(stored->user_id, stored->personal_token_id);
    if (!principal) {
        return std::nullopt;
    }
    if (now - stored->last_seen_at >= touch_resolution_ms) {
        database_.transaction(
            [&](soci::session& session) { sessions::touch(session, stored->id, now); });
    }
    return CurrentSession{*token, stored->user_id, std::move(*principal)};
}

std::optional<Principal> SessionManager::resolve(const Request& request) {
    const auto token = cookie_token(request);
    if (!token) {
        return std::nullopt;
    }
    auto current_session = current(request);
    if (!current_session) {
        throw session_ended();
    }
    if (!is_safe_method(to_string(request.method()))) {
        const auto presented = request.header(std::string(csrf_header_name));
        if (!presented || !csrf_matches(current_session->token, *presented)) {
            throw HttpError::forbidden(
                "Missing or invalid CSRF token: a write from the review page must send the "
                "X-CSRF-Token header of its session");
        }
    }
    return std::move(current_session->principal);
}

bool SessionManager::revoke(const std::string& token) {
    if (!is_token_format(token)) {
        return false;
    }
    return database_.transaction([&](soci::session& session) {
        return sessions::revoke(session, token_hash(token), now_ms());
    });
}

std::vector<sessions::SessionListing> SessionManager::live_sessions(int64_t user_id) const {
    auto session = database_.session();
    return sessions::list_live(*session, user_id, now_ms());
}

std::optional<int64_t> SessionManager::session_id(const Request& request) const {
    const auto token = cookie_token(request);
    if (!token || !is_token_format(*token)) {
        return std::nullopt;
    }
    auto session = database_.session();
    const auto stored = sessions::find_live(*session, token_hash(*token), now_ms());
    return stored ? std::optional<int64_t>(stored->id) : std::nullopt;
}

bool SessionManager::revoke_session(int64_t user_id, int64_t id) {
    return database_.transaction([&](soci::session& session) {
        return sessions::revoke_id(session, user_id, id, now_ms());
    });
}

int SessionManager::revoke_other_sessions(int64_t user_id, const Request& request) {
    const auto own = session_id(request);
    return database_.transaction([&](soci::session& session) {
        return sessions::revoke_others(session, user_id, own, now_ms());
    });
}

int SessionManager::revoke_user(int64_t user_id) {
    return database_.transaction(
        [&](soci::session& session) { return sessions::revoke_user(session, user_id, now_ms()); });
}

std::string SessionManager::issue_login_link(int64_t user_id) {
    const std::string token = random_token();
    const int64_t now = now_ms();
    database_.transaction([&](soci::session& session) {
        login_links::delete_expired(session, now);
        login_links::insert(session, token_hash(token), user_id, now + settings_.login_link_ms,
                            now);
    });
    return token;
}

std::optional<int64_t> SessionManager::consume_login_link(soci::session& session,
                                                          const std::string& token) {
    if (!is_token_format(token)) {
        return std::nullopt;
    }
    return login_links::consume(session, token_hash(token), now_ms());
}

std::string SessionManager::login_link_url(const std::string& token) const {
    return public_url_() + "/_loupe/login#link=" + token;
}

CookieOptions SessionManager::cookie_options() const {
    return CookieOptions{is_https(public_url_()), settings_.session_ms / 1000};
}

void SessionManager::delete_stale() {
    const int64_t now = now_ms();
    database_.transaction([&](soci::session& session) {
        sessions::delete_stale(session, now);
        login_links::delete_expired(session, now);
    });
}

}  // namespace loupe::web
