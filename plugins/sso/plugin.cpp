// The sso plugin: people sign in through the company's identity provider (OpenID Connect,
// Authorization Code with PKCE; SAML 2.0, on liblasso) or GitHub (an OAuth app). It decides who the
// person is and which teams they belong to; the web plugin opens the browser session
// (web.BrowserSessions). Without a configured provider it only answers an empty provider list, and
// the one-time sign-in link stays the way in.
#include "loupe/plugin.hpp"

#include "loupe/host.hpp"
#include "loupe/http/api_description.hpp"
#include "loupe/http/http_client.hpp"
#include "loupe/web/session_service.hpp"
#include "routes/oidc_routes.hpp"
#include "routes/saml_routes.hpp"
#include "settings/oidc_providers.hpp"
#include "settings/saml_providers.hpp"
#include "sign_in/github_client.hpp"
#include "store/sso_migrations.hpp"

namespace {

std::unique_ptr<loupe::HttpClient> make_http_client(const loupe::ConfigView& config) {
    try {
        return std::make_unique<loupe::HttpClient>(
            loupe::HttpClientSettings{.ca_file = config.get_string("auth.oidc.ca_file", "")});
    } catch (const std::exception& error) {
        throw std::runtime_error(std::string("auth.oidc.ca_file: ") + error.what());
    }
}

void install(loupe::Host& host) {
    using namespace loupe::sso;
    loupe::describe_api(host.services(), loupe::embedded_api_description());
    add_migrations(host.migrations());
    const auto providers = read_oidc_providers(host.global_config());
    // The client lives as long as the installation (the providers' clients hold it).
    auto& http = host.keep(make_http_client(host.global_config()));
    std::vector<std::shared_ptr<SignInClient>> clients;
    for (const auto& provider : providers) {
        if (provider.kind == OidcProvider::Kind::github) {
            clients.push_back(std::make_shared<GitHubClient>(http, provider));
        } else {
            clients.push_back(std::make_shared<OidcClient>(http, provider));
        }
        host.log().info("sso.provider", {{"id", provider.id}, {"issuer", provider.issuer}});
    }
    std::vector<std::shared_ptr<SamlServiceProvider>> saml;
    for (auto& provider : read_saml_providers(host.global_config())) {
        host.log().info("sso.saml_provider", {{"id", provider.id}});
        saml.push_back(std::make_shared<SamlServiceProvider>(
            std::move(provider), [&host] { return host.public_url(); }));
    }
    const auto& sessions = host.services().require<loupe::web::BrowserSessions>();
    add_oidc_routes(host, sessions, std::move(clients), saml_provider_entries(saml));
    add_saml_routes(host, sessions, std::move(saml));
}

}  // namespace

LOUPE_PLUGIN("sso", LOUPE_VERSION, LOUPE_REQUIRES("auth", "web"), install)
