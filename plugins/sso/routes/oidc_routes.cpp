// Sign-in through an OpenID Connect provider (Authorization Code with PKCE), or GitHub (an
// OAuth app, the same flow; see sign_in/github_client.hpp):
//  start:    a new state, nonce and PKCE verifier are stored server-side (the state hashed); the
//            state also goes into a short-lived HttpOnly cookie, binding the sign-in to this
//            browser; the browser is sent to the provider.
//  callback: the state must be the one this browser's cookie holds and still pending (used at
//            most once, within 10 minutes); the code is redeemed with the verifier, the ID
//            token verified (signature, iss, aud, exp, nonce), the person found or created and
//            their team roles applied, and the web plugin's session opened, all in one
//            transaction. Any failure ends on the sign-in page with a message, never signed in.
#include "routes/oidc_routes.hpp"

#include "loupe/crypto/digest.hpp"
#include "loupe/crypto/encoding.hpp"
#include "loupe/crypto/random.hpp"
#include "loupe/http/cookies.hpp"
#include "loupe/http/http_client.hpp"
#include "loupe/jose/pkce.hpp"
#include "sign_in/sign_in_user.hpp"
#include "store/sign_in_attempts.hpp"

namespace loupe::sso {
namespace {

constexpr int64_t attempt_ttl_ms = 10LL * 60 * 1000;
constexpr std::size_t max_next_length = 2000;

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

/// A path on this server to return to after sign-in; anything else (another origin, "//host",
/// a backslash trick, control characters) becomes "/".
std::string safe_next(const std::optional<std::string>& next) {
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

Response redirect_to(const std::string& location) {
    Response response;
    response.status = 302;
    response.headers.emplace_back("Location", location);
    response.headers.emplace_back("Cache-Control", "no-store");
    return response;
}

/// Back to the sign-in page with a message for the person.
Response failed(const std::string& next, const std::string& message, bool secure) {
    auto response = redirect_to("/_loupe/login?next=" + url_query_component(next) +
                                "&error=" + url_query_component(message));
    response.headers.emplace_back("Set-Cookie", state_cookie("", secure, 0));
    return response;
}

std::string random_url_token() {
    return crypto::base64url_encode(crypto::random_bytes(32));
}

SignInClient* client_named(const std::vector<std::shared_ptr<SignInClient>>& clients,
                           const std::string& id) {
    for (const auto& client : clients) {
        if (client->provider().id == id) {
            return client.get();
        }
    }
    return nullptr;
}

struct Routes {
    Host& host;
    const web::BrowserSessions& sessions;
    std::vector<std::shared_ptr<SignInClient>> clients;

    std::string redirect_uri(const OidcProvider& provider) const {
        return host.public_url() + "/_loupe/sso/oidc/" + provider.id + "/callback";
    }

    Response providers() const {
        Json list = Json::array();
        for (const auto& client : clients) {
            const auto& provider = client->provider();
            list.push_back({{"id", provider.id},
                            {"name", provider.display_name},
                            {"startUrl", "/_loupe/sso/oidc/" + provider.id + "/start"}});
        }
        return Response::json(Json{{"providers", std::move(list)}});
    }

    Response start(Request& request) const {
        const bool secure = is_https(host.public_url());
        const std::string next = safe_next(request.query("next"));
        auto* client = client_named(clients, request.param("provider"));
        if (client == nullptr) {
            return failed(next, "Unknown sign-in provider", secure);
        }
        const std::string state = random_url_token();
        const auto pkce = jose::new_pkce();
        sign_in_attempts::Attempt attempt{client->provider().id, random_url_token(), pkce.verifier,
                                          next, now_ms()};
        std::string location;
        try {
            location = client->authorization_url(redirect_uri(client->provider()), state,
                                                 attempt.nonce, pkce.challenge);
        } catch (const ProviderUnavailable& error) {
            host.log().warn("sso.provider_unavailable",
                            {{"provider", client->provider().id}, {"error", error.what()}});
            return failed(next,
                          client->provider().display_name +
                              " cannot be reached right now. Try again in a minute.",
                          secure);
        }
        host.db().transaction([&](soci::session& session) {
            sign_in_attempts::record(session, state, attempt, now_ms() - attempt_ttl_ms);
        });
        auto response = redirect_to(location);
        response.headers.emplace_back("Set-Cookie",
                                      state_cookie(state, secure, attempt_ttl_ms / 1000));
        return response;
    }

    Response callback(Request& request) const {
        const bool secure = is_https(host.public_url());
        const auto state = request.query("state").value_or("");
        const auto bound =
            cookie_value(request.header("Cookie").value_or(""), state_cookie_name(secure));
        // The state must be the one this browser started with: a callback URL carried to
        // another browser (login CSRF) or replayed finds no matching cookie.
        if (state.empty() || !bound || !crypto::equal_in_constant_time(*bound, state)) {
            return failed("/",
                          "This sign-in was started in another browser or expired. Sign in again.",
                          secure);
        }
        const auto attempt = host.db().transaction([&](soci::session& session) {
            return sign_in_attempts::take(session, state, now_ms() - attempt_ttl_ms);
        });
        auto* client = client_named(clients, request.param("provider"));
        if (!attempt || client == nullptr || attempt->provider != client->provider().id) {
            return failed("/", "This sign-in expired or was already used. Sign in again.", secure);
        }
        const auto& provider = client->provider();
        if (const auto error = request.query("error")) {
            const auto description = request.query("error_description").value_or(*error);
            return failed(
                attempt->return_to,
                provider.display_name + " did not sign you in: " + description.substr(0, 200),
                secure);
        }
        const auto code = request.query("code").value_or("");
        if (code.empty()) {
            return failed(attempt->return_to, provider.display_name + " sent no code", secure);
        }
        Json claims;
        try {
            claims = client->redeem(code, attempt->code_verifier, redirect_uri(provider),
                                    attempt->nonce);
        } catch (const ProviderUnavailable& error) {
            host.log().warn("sso.provider_unavailable",
                            {{"provider", provider.id}, {"error", error.what()}});
            return failed(
                attempt->return_to,
                provider.display_name + " cannot be reached right now. Try again in a minute.",
                secure);
        } catch (const SignInRejected& error) {
            host.log().warn("sso.sign_in_rejected",
                            {{"provider", provider.id}, {"error", error.what()}});
            return failed(attempt->return_to, error.what(), secure);
        }
        const auto identity = sign_in_identity(claims, attempt->nonce, provider.policy);
        if (const auto* refusal = std::get_if<SignInRefusal>(&identity)) {
            host.log().info("sso.sign_in_refused",
                            {{"provider", provider.id}, {"reason", refusal->message}});
            return failed(attempt->return_to, refusal->message, secure);
        }
        const auto& person = std::get<SignInIdentity>(identity);
        const auto agent = request.header("User-Agent").value_or("");
        SignedInUser user;
        const std::string session_cookie = host.db().transaction([&](soci::session& session) {
            user = sign_in_user(session, host.identity(), provider.id, person, provider.roles,
                                now_ms(), host.services().find<auth::TeamDomains>());
            return sessions.open(session, user.user_id, agent);
        });
        for (const auto& note : user.notes) {
            host.log().warn("sso.role_mapping", {{"provider", provider.id}, {"note", note}});
        }
        host.log().info("sso.signed_in", {{"provider", provider.id},
                                          {"user", std::to_string(user.user_id)},
                                          {"created", user.created ? "true" : "false"}});
        for (const auto& team : user.joined_by_domain) {
            host.log().info("sso.joined_by_domain",
                            {{"user", std::to_string(user.user_id)}, {"team", team}});
        }
        auto response = redirect_to(attempt->return_to);
        response.headers.emplace_back("Set-Cookie", session_cookie);
        response.headers.emplace_back("Set-Cookie", state_cookie("", secure, 0));
        return response;
    }
};

}  // namespace

void add_oidc_routes(Host& host, const web::BrowserSessions& sessions,
                     std::vector<std::shared_ptr<SignInClient>> clients) {
    auto routes = std::make_shared<Routes>(Routes{host, sessions, std::move(clients)});
    host.routes().add(Method::get, "/_loupe/sso/providers", AuthRequirement::none,
                      RouteAccess::public_route("lists the sign-in providers' names for the "
                                                "sign-in page"),
                      [routes](Request&) { return routes->providers(); });
    host.routes().add(Method::get, "/_loupe/sso/oidc/{provider}/start", AuthRequirement::none,
                      RouteAccess::public_route("starts a sign-in: whoever calls it is not "
                                                "signed in yet"),
                      [routes](Request& request) { return routes->start(request); });
    host.routes().add(Method::get, "/_loupe/sso/oidc/{provider}/callback", AuthRequirement::none,
                      RouteAccess::public_route("ends a sign-in: the state bound to this "
                                                "browser and the provider's code are the "
                                                "credentials"),
                      [routes](Request& request) { return routes->callback(request); });
}

}  // namespace loupe::sso
