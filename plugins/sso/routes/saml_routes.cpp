// Sign-in through a SAML 2.0 identity provider (SP-initiated, HTTP-Redirect then HTTP-POST):
//  start:  a new state (the RelayState) is stored server-side with the AuthnRequest's ID and
//          also set in a short-lived HttpOnly cookie, binding the sign-in to this browser; the
//          browser carries the signed AuthnRequest to the IdP.
//  acs:    the IdP's page posts the Response here. That POST comes from the IdP's origin, so a
//          SameSite cookie is not sent with it: the attempt is taken (once: a replayed Response
//          finds nothing), the Response verified against it (signature, issuer, status, the
//          request it answers, audience, validity), and its claims kept under the same state;
//          the browser is sent on to `finish`, on this origin.
//  finish: the state must be the one this browser's cookie holds (a Response posted into
//          another person's browser, login CSRF, stops here); the claims pass the provider's
//          policy (email domains) and the person is signed in as for OpenID Connect.
// Any failure ends on the sign-in page with a message, never signed in.
#include "routes/saml_routes.hpp"

#include "loupe/http/form_body.hpp"
#include "loupe/http/http_client.hpp"
#include "routes/sign_in_flow.hpp"
#include "store/sign_in_attempts.hpp"

namespace loupe::sso {
namespace {

/// The key under which identities and attempts of a SAML provider are kept (OIDC ids have no
/// colon, so the two never meet).
std::string provider_key(const SamlProvider& provider) {
    return "saml:" + provider.id;
}

struct SamlRoutes {
    Host& host;
    const web::BrowserSessions& sessions;
    std::vector<std::shared_ptr<SamlServiceProvider>> providers;

    SamlServiceProvider* named(const std::string& id) const {
        for (const auto& provider : providers) {
            if (provider->provider().id == id) {
                return provider.get();
            }
        }
        return nullptr;
    }

    Response metadata(Request& request) const {
        auto* sp = named(request.param("provider"));
        if (sp == nullptr) {
            throw HttpError::not_found("Unknown SAML provider");
        }
        Response response;
        response.status = 200;
        response.body = sp->metadata_xml();
        response.headers.emplace_back("Content-Type", "application/samlmetadata+xml");
        return response;
    }

    Response start(Request& request) const {
        const bool secure = is_https(host.public_url());
        const std::string next = safe_next(request.query("next"));
        auto* sp = named(request.param("provider"));
        if (sp == nullptr) {
            return sign_in_failed(next, "Unknown sign-in provider", secure);
        }
        const std::string state = random_url_token();
        SamlServiceProvider::AuthnRequest authn;
        try {
            authn = sp->authn_request(state);
        } catch (const std::runtime_error& error) {
            host.log().warn("sso.provider_unavailable",
                            {{"provider", provider_key(sp->provider())}, {"error", error.what()}});
            return sign_in_failed(next, sp->provider().display_name + " cannot be used right now",
                                  secure);
        }
        const sign_in_attempts::Attempt attempt{provider_key(sp->provider()), authn.id, "", next,
                                                now_ms()};
        host.db().transaction([&](soci::session& session) {
            sign_in_attempts::record(session, state, attempt, now_ms() - sign_in_ttl_ms);
        });
        auto response = redirect_to(authn.url);
        response.headers.emplace_back("Set-Cookie",
                                      state_cookie(state, secure, sign_in_ttl_ms / 1000));
        return response;
    }

    Response acs(Request& request) const {
        const bool secure = is_https(host.public_url());
        auto* sp = named(request.param("provider"));
        const auto form = parse_form_body(request.body());
        const auto field = [&form](const char* name) {
            const auto found = form.find(name);
            return found == form.end() ? std::string() : found->second;
        };
        const std::string state = field("RelayState");
        const std::string saml_response = field("SAMLResponse");
        if (sp == nullptr || state.empty()) {
            return sign_in_failed("/", "This sign-in expired or was already used. Sign in again.",
                                  secure);
        }
        auto attempt = host.db().transaction([&](soci::session& session) {
            return sign_in_attempts::take(session, state, now_ms() - sign_in_ttl_ms);
        });
        if (attempt && attempt->verified_claims &&
            attempt->provider == provider_key(sp->provider())) {
            // The IdP's page posted twice (a resubmitted form): the first, verified response
            // stands, kept for the browser's finish; this one is not read.
            host.db().transaction([&](soci::session& session) {
                sign_in_attempts::record(session, state, *attempt, now_ms() - sign_in_ttl_ms);
            });
            return redirect_to("/_loupe/sso/saml/" + sp->provider().id +
                                   "/finish?state=" + url_query_component(state),
                               303);
        }
        if (!attempt || attempt->provider != provider_key(sp->provider())) {
            return sign_in_failed("/", "This sign-in expired or was already used. Sign in again.",
                                  secure);
        }
        Json claims;
        try {
            claims = sp->verify_response(saml_response, attempt->nonce, now_ms() / 1000);
        } catch (const SamlRefused& error) {
            host.log().warn("sso.sign_in_rejected",
                            {{"provider", attempt->provider}, {"error", error.what()}});
            return sign_in_failed(attempt->return_to, error.what(), secure);
        }
        claims["nonce"] = attempt->nonce;
        attempt->verified_claims = claims.dump();
        host.db().transaction([&](soci::session& session) {
            sign_in_attempts::record(session, state, *attempt, now_ms() - sign_in_ttl_ms);
        });
        // 303: the browser follows with a GET, on this origin, with its cookies.
        return redirect_to(
            "/_loupe/sso/saml/" + sp->provider().id + "/finish?state=" + url_query_component(state),
            303);
    }

    Response finish(Request& request) const {
        const bool secure = is_https(host.public_url());
        const auto state = request.query("state").value_or("");
        if (!state_bound_to_browser(request, state, secure)) {
            return sign_in_failed(
                "/", "This sign-in was started in another browser or expired. Sign in again.",
                secure);
        }
        auto* sp = named(request.param("provider"));
        const auto attempt = host.db().transaction([&](soci::session& session) {
            return sign_in_attempts::take(session, state, now_ms() - sign_in_ttl_ms);
        });
        if (sp == nullptr || !attempt || attempt->provider != provider_key(sp->provider()) ||
            !attempt->verified_claims) {
            return sign_in_failed("/", "This sign-in expired or was already used. Sign in again.",
                                  secure);
        }
        const auto& provider = sp->provider();
        const auto claims = Json::parse(*attempt->verified_claims, nullptr, false);
        const auto identity = sign_in_identity(claims, attempt->nonce, provider.policy);
        if (const auto* refusal = std::get_if<SignInRefusal>(&identity)) {
            host.log().info("sso.sign_in_refused",
                            {{"provider", attempt->provider}, {"reason", refusal->message}});
            return sign_in_failed(attempt->return_to, refusal->message, secure);
        }
        return finish_sign_in(host, sessions, attempt->provider, std::get<SignInIdentity>(identity),
                              provider.roles, request, attempt->return_to);
    }
};

}  // namespace

Json saml_provider_entries(const std::vector<std::shared_ptr<SamlServiceProvider>>& providers) {
    Json list = Json::array();
    for (const auto& sp : providers) {
        list.push_back({{"id", sp->provider().id},
                        {"name", sp->provider().display_name},
                        {"startUrl", "/_loupe/sso/saml/" + sp->provider().id + "/start"}});
    }
    return list;
}

void add_saml_routes(Host& host, const web::BrowserSessions& sessions,
                     std::vector<std::shared_ptr<SamlServiceProvider>> providers) {
    auto routes = std::make_shared<SamlRoutes>(SamlRoutes{host, sessions, std::move(providers)});
    host.routes().add(Method::get, "/_loupe/sso/saml/{provider}/metadata", AuthRequirement::none,
                      RouteAccess::public_route("the SP's metadata, for the IdP's administrator"),
                      [routes](Request& request) { return routes->metadata(request); });
    host.routes().add(Method::get, "/_loupe/sso/saml/{provider}/start", AuthRequirement::none,
                      RouteAccess::public_route("starts a sign-in: whoever calls it is not "
                                                "signed in yet"),
                      [routes](Request& request) { return routes->start(request); });
    host.routes().add(
        Method::post, "/_loupe/sso/saml/{provider}/acs", AuthRequirement::none,
        RouteAccess::public_route("receives the IdP's signed response: the "
                                  "response and the pending request are the "
                                  "credentials"),
        [routes](Request& request) { return routes->acs(request); }, RouteOptions{BodyMode::form});
    host.routes().add(Method::get, "/_loupe/sso/saml/{provider}/finish", AuthRequirement::none,
                      RouteAccess::public_route("ends a sign-in: the state bound to this "
                                                "browser and the verified response are the "
                                                "credentials"),
                      [routes](Request& request) { return routes->finish(request); });
}

}  // namespace loupe::sso
