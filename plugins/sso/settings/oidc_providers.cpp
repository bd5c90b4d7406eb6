#include "settings/oidc_providers.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "loupe/text/strings.hpp"
#include "settings/provider_keys.hpp"

namespace loupe::sso {
namespace {

constexpr std::string_view prefix = "auth.oidc.";

OidcProvider read_provider(const ConfigView& config, const std::string& id) {
    const std::string base = std::string(prefix) + id + ".";
    const auto required = [&](const std::string& name) {
        std::string value(trim(config.get_string(base + name, "")));
        if (value.empty()) {
            refuse_key(base + name, "missing (provider \"" + id + "\" needs it)");
        }
        return value;
    };
    OidcProvider provider;
    provider.id = id;
    provider.display_name = std::string(trim(config.get_string(base + "name", id)));
    provider.issuer = required("issuer");
    while (provider.issuer.ends_with('/')) {
        provider.issuer.pop_back();
    }
    if (!provider.issuer.starts_with("https://") && !provider.issuer.starts_with("http://")) {
        refuse_key(base + "issuer", "must be an http(s) URL");
    }
    const std::string kind(trim(config.get_string(base + "kind", "oidc")));
    if (kind != "oidc" && kind != "github") {
        refuse_key(base + "kind", "must be oidc or github");
    }
    const bool github = kind == "github";
    provider.kind = github ? OidcProvider::Kind::github : OidcProvider::Kind::oidc;
    if (github) {
        const std::string default_api = provider.issuer == "https://github.com"
                                            ? "https://api.github.com"
                                            : provider.issuer + "/api/v3";
        provider.api_url = std::string(trim(config.get_string(base + "api_url", default_api)));
        while (provider.api_url.ends_with('/')) {
            provider.api_url.pop_back();
        }
        if (!provider.api_url.starts_with("https://") && !provider.api_url.starts_with("http://")) {
            refuse_key(base + "api_url", "must be an http(s) URL");
        }
    }
    provider.client_id = required("client_id");
    if (const auto file = config.find(base + "client_secret_file"); file && !trim(*file).empty()) {
        provider.client_secret =
            read_key_file(base + "client_secret_file", std::string(trim(*file)));
    }
    // GitHub's scopes: the person's profile, their addresses, their organisations and teams.
    provider.scopes = github ? std::vector<std::string>{} : std::vector<std::string>{"openid"};
    const char* default_scopes = github ? "read:user user:email read:org" : "openid email profile";
    for (auto& scope : words_of(config.get_string(base + "scopes", default_scopes))) {
        if (std::ranges::find(provider.scopes, scope) == provider.scopes.end()) {
            provider.scopes.push_back(std::move(scope));
        }
    }
    provider.policy.allowed_email_domains =
        parse_email_domains(config.get_string(base + "email_domains", ""));
    provider.policy.roles_claim =
        std::string(trim(config.get_string(base + "roles_claim", "groups")));
    provider.roles = read_role_mapping(config, base);
    return provider;
}

}  // namespace

std::vector<OidcProvider> read_oidc_providers(const ConfigView& config) {
    std::vector<OidcProvider> providers;
    for (const auto& id : configured_provider_ids(config, std::string(prefix), "issuer")) {
        providers.push_back(read_provider(config, id));
    }
    return providers;
}

}  // namespace loupe::sso
