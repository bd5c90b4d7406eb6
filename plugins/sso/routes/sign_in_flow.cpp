#include "routes/sign_in_flow.hpp"

#include "loupe/crypto/digest.hpp"
#include "loupe/crypto/encoding.hpp"
#include "loupe/crypto/random.hpp"
#include "loupe/http/cookies.hpp"
#include "loupe/http/http_client.hpp"
#include "sign_in/sign_in_user.hpp"

namespace loupe::sso {
namespace {

constexpr std::size_t max_next_length = 2000;

}  // namespace

bool is_https(const std::string& url) {
    return url.starts_with("https://");
}

std::string state_cookie_name(bool secure) {
    return secure ? "__Secure-loupe_sso_state" : "loupe_sso_state";
}

std::string state_cookie(const std::string& state, bool secure, int64_t max_age_s) {
    return state_cookie_name(secure) + "=" + state +
           "; Path=/_loupe/sso/; HttpOnly; SameSite=Lax; Max-Age=" + std::to_string(max_age_s) +
           (secure ? "; Secure" : "");
}

std::string safe_next(const std::optional<std::string>& next) {
    // Another origin, "//host", a backslash trick or control characters all become "/".
    if (!next || next->size() > max_next_length || !next->starts_with('/') ||
        next->starts_with("//") || next->starts_with("/\\")) {
        return "/";
    }
    for (const char c : *next) {
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f || c == '\\') {
            return "/";
        }
    }
    return *next;
}

Response redirect_to(const std::string& location, int status) {
    Response response;
    response.status = status;
    response.headers.emplace_back("Location", location);
    response.headers.emplace_back("Cache-Control", "no-store");
    return response;
}

Response sign_in_failed(const std::string& next, const std::string& message, bool secure) {
    auto response = redirect_to("/_loupe/login?next=" + url_query_component(next) +
                                "&error=" + url_query_component(message));
    response.headers.emplace_back("Set-Cookie", state_cookie("", secure, 0));
    return response;
}

std::string random_url_token() {
    return crypto::base64url_encode(crypto::random_bytes(32));
}

bool state_bound_to_browser(Request& request, const std::string& state, bool secure) {
    const auto bound =
        cookie_value(request.header("Cookie").value_or(""), state_cookie_name(secure));
    return !state.empty() && bound && crypto::equal_in_constant_time(*bound, state);
}

Response finish_sign_in(Host& host, const web::BrowserSessions& sessions,
                        const std::string& provider_key, const SignInIdentity& person,
                        const RoleMapping& roles, Request& request, const std::string& return_to) {
    const bool secure = is_https(host.public_url());
    const auto agent = request.header("User-Agent").value_or("");
    SignedInUser user;
    const std::string session_cookie = host.db().transaction([&](soci::session& session) {
        user = sign_in_user(session, host.identity(), provider_key, person, roles, now_ms(),
                            host.services().find<auth::TeamDomains>());
        return sessions.open(session, user.user_id, agent);
    });
    for (const auto& note : user.notes) {
        host.log().warn("sso.role_mapping", {{"provider", provider_key}, {"note", note}});
    }
    host.log().info("sso.signed_in", {{"provider", provider_key},
                                      {"user", std::to_string(user.user_id)},
                                      {"created", user.created ? "true" : "false"}});
    for (const auto& team : user.joined_by_domain) {
        host.log().info("sso.joined_by_domain",
                        {{"user", std::to_string(user.user_id)}, {"team", team}});
    }
    auto response = redirect_to(return_to);
    response.headers.emplace_back("Set-Cookie", session_cookie);
    response.headers.emplace_back("Set-Cookie", state_cookie("", secure, 0));
    return response;
}

}  // namespace loupe::sso
