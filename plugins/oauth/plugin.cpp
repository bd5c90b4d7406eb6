// The oauth plugin: Loupe as an OAuth 2.1 authorization server for the official Argos CLI
// (`argos login`, `argos logout`, and CLI 4.x's older `argos login`): the consent page's calls,
// the token and revocation endpoints, and the `argos_oat_` access tokens the API then accepts
// as the person who approved them.
#include "loupe/plugin.hpp"

#include "authorization_server.hpp"
#include "loupe/host.hpp"
#include "loupe/http/api_description.hpp"
#include "loupe/http/http_error.hpp"
#include "routes/oauth_routes.hpp"
#include "store/oauth_migrations.hpp"

namespace {

void install(loupe::Host& host) {
    using namespace loupe::oauth;
    loupe::describe_api(host.services(), loupe::embedded_api_description());
    add_migrations(host.migrations());
    auto server = std::make_shared<AuthorizationServer>(host.db());
    // An access token acts as its user, on every team the user belongs to now, limited to the
    // scopes of its grant (the core checks them on every route).
    host.token_resolvers().add("argos_oat_", [server, &host](const std::string& token) {
        const auto owner = server->owner_of_access_token(token);
        if (!owner) {
            throw loupe::HttpError::unauthorized("Access token not found");
        }
        auto principal = host.identity().user_principal(owner->user_id, std::nullopt);
        if (!principal) {
            throw loupe::HttpError::unauthorized("This user belongs to no account");
        }
        principal->oauth_scopes = owner->scopes;
        return *principal;
    });
    add_consent_routes(host, server);
    add_token_routes(host, server);
    add_cli_login_routes(host, server);
    add_grant_routes(host);
}

}  // namespace

LOUPE_PLUGIN("oauth", LOUPE_VERSION, LOUPE_REQUIRES("auth", "web"), install)
