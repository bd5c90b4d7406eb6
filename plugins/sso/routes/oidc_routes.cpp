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

#include "loupe/http/http_client.hpp"
#include "loupe/jose/pkce.hpp"
#include "routes/sign_in_flow.hpp"
#include "store/sign_in_attempts.hpp"

namespace loupe::sso {
namespace {

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
    Json more_providers;

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
        for (const auto& other : more_providers) {
            list.push_back(other);
        }
        return Response::json(Json{{"providers", std::move(list)}});
    }

    Response start(Request& request) const {
        const bool secure = is_https(host.public_url());
        const std::string next = safe_next(request.query("next"));
        auto* client = client_named(clients, request.param("provider"));
        if (client == nullptr) {
            return sign_in_failed(next, "Unknown sign-in provider", secure);
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
            return sign_in_failed(next,
                                  client->provider().display_name +
                                      " cannot be reached right now. Try again in a minute.",
                                  secure);
        }
        host.db().transaction([&](soci::session& session) {
            sign_in_attempts::record(session, state, attempt, now_ms() - sign_in_ttl_ms);
        });
        auto response = redirect_to(location);
        response.headers.emplace_back("Set-Cookie",
                                      state_cookie(state, secure, sign_in_ttl_ms / 1000));
        return response;
    }

    Response callback(Request& request) const {
        const bool secure = is_https(host.public_url());
        const auto state = request.query("state").value_or("");
        // The state must be the one this browser started with: a callback URL carried to
        // another browser (login CSRF) or replayed finds no matching cookie.
        if (!state_bound_to_browser(request, state, secure)) {
            return sign_in_failed(
                "/", "This sign-in was started in another browser or expired. Sign in again.",
                secure);
        }
        const auto attempt = host.db().transaction([&](soci::session& session) {
            return sign_in_attempts::take(session, state, now_ms() - sign_in_ttl_ms);
        });
        auto* client = client_named(clients, request.param("provider"));
        if (!attempt || client == nullptr || attempt->provider != client->provider().id) {
            return sign_in_failed("/", "This sign-in expired or was already used. Sign in again.",
                                  secure);
        }
        const auto& provider = client->provider();
        if (const auto error = request.query("error")) {
            const auto description = request.query("error_description").value_or(*error);
            return sign_in_failed(
                attempt->return_to,
                provider.display_name + " did not sign you in: " + description.substr(0, 200),
                secure);
        }
        const auto code = request.query("code").value_or("");
        if (code.empty()) {
            return sign_in_failed(attempt->return_to, provider.display_name + " sent no code",
                                  secure);
        }
        Json claims;
        try {
            claims = client->redeem(code, attempt->code_verifier, redirect_uri(provider),
                                    attempt->nonce);
        } catch (const ProviderUnavailable& error) {
            host.log().warn("sso.provider_unavailable",
                            {{"provider", provider.id}, {"error", error.what()}});
            return sign_in_failed(
                attempt->return_to,
                provider.display_name + " cannot be reached right now. Try again in a minute.",
                secure);
        } catch (const SignInRejected& error) {
            host.log().warn("sso.sign_in_rejected",
                            {{"provider", provider.id}, {"error", error.what()}});
            return sign_in_failed(attempt->return_to, error.what(), secure);
        }
        const auto identity = sign_in_identity(claims, attempt->nonce, provider.policy);
        if (const auto* refusal = std::get_if<SignInRefusal>(&identity)) {
            host.log().info("sso.sign_in_refused",
                            {{"provider", provider.id}, {"reason", refusal->message}});
            return sign_in_failed(attempt->return_to, refusal->message, secure);
        }
        return finish_sign_in(host, sessions, provider.id, std::get<SignInIdentity>(identity),
                              provider.roles, request, attempt->return_to);
    }
};

}  // namespace

void add_oidc_routes(Host& host, const web::BrowserSessions& sessions,
                     std::vector<std::shared_ptr<SignInClient>> clients, Json more_providers) {
    auto routes = std::make_shared<Routes>(
        Routes{host, sessions, std::move(clients), std::move(more_providers)});
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
