#pragma once
// The secrets of browser sign-in: session and login-link tokens (random, stored only as their
// SHA-256), the CSRF token derived from a session token, and the session cookie.

#include <optional>
#include <string>
#include <string_view>

namespace loupe::web {

/// The session cookie's name: `__Host-loupe_session` when the public URL is https (the
/// browser then accepts it only Secure, with Path=/ and no Domain, set by this very host, so no
/// other host, not even a sibling subdomain, can set or shadow it), `loupe_session` otherwise.
std::string_view session_cookie_name(bool secure);
inline constexpr std::string_view csrf_header_name = "X-CSRF-Token";

/// 32 random bytes as 64 lower-case hex characters.
std::string random_token();
/// Lower-case hex SHA-256: what the tables store instead of a token.
std::string token_hash(std::string_view token);
/// True for what random_token() makes (anything else is refused before a database look-up).
bool is_token_format(std::string_view token);

/// HMAC-SHA256 of a fixed label keyed by the session token: the page reads it once and sends it
/// on every write; a cross-site form can neither read nor compute it, and a leaked table of
/// session hashes does not give it.
std::string csrf_token(std::string_view session_token);
/// Constant-time comparison of `presented` with csrf_token(session_token).
bool csrf_matches(std::string_view session_token, std::string_view presented);

/// The value of cookie `name` in a Cookie header ("a=1; loupe_session=...; b=2").
std::optional<std::string> cookie_value(std::string_view cookie_header, std::string_view name);

struct CookieOptions {
    bool secure = false;  ///< the public URL is https
    long long max_age_s = 0;
};
/// Set-Cookie value for the session: HttpOnly, SameSite=Lax, Path=/, no Domain; Secure and
/// named with the `__Host-` prefix when the public URL is https.
std::string session_cookie(std::string_view token, const CookieOptions& options);
/// Set-Cookie value that deletes the session cookie.
std::string cleared_session_cookie(const CookieOptions& options);

/// True for the methods that change nothing (a CSRF token is needed for every other).
bool is_safe_method(std::string_view method);

}  // namespace loupe::web
