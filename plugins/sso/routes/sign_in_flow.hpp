#pragma once
// The pieces every sign-in flow shares (OpenID Connect, GitHub, SAML): the short-lived cookie
// that binds a sign-in's state to the browser that started it, the return path, redirects, the
// failure that goes back to the sign-in page with a message, and the end: the person found or
// created, their team roles applied and the browser session opened, in one transaction.

#include <optional>
#include <string>

#include "loupe/host.hpp"
#include "loupe/web/session_service.hpp"
#include "oidc/role_mapping.hpp"
#include "oidc/sign_in_claims.hpp"

namespace loupe::sso {

/// How long a sign-in may take, from the start to the return.
inline constexpr int64_t sign_in_ttl_ms = 10LL * 60 * 1000;

bool is_https(const std::string& url);
std::string state_cookie_name(bool secure);
std::string state_cookie(const std::string& state, bool secure, int64_t max_age_s);
/// A path on this server to return to after sign-in; anything else becomes "/".
std::string safe_next(const std::optional<std::string>& next);
Response redirect_to(const std::string& location, int status = 302);
/// Back to the sign-in page with a message for the person (and the state cookie cleared).
Response sign_in_failed(const std::string& next, const std::string& message, bool secure);
std::string random_url_token();
/// True when the request's state cookie holds `state`.
bool state_bound_to_browser(Request& request, const std::string& state, bool secure);

/// Signs `person` in as the user `provider_key`'s subject links to (or creates), applies
/// `roles`, opens the session and answers the redirect to `return_to` with its cookie.
Response finish_sign_in(Host& host, const web::BrowserSessions& sessions,
                        const std::string& provider_key, const SignInIdentity& person,
                        const RoleMapping& roles, Request& request, const std::string& return_to);

}  // namespace loupe::sso
