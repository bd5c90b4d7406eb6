#include "settings/oidc_providers.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "loupe/text/strings.hpp"

namespace loupe::sso {
namespace {

constexpr std::string_view prefix = "auth.oidc.";

[[noreturn]] void refuse(const std::string& key, const std::string& why) {
    throw std::runtime_error("configuration key '" + key + "': " + why);
}

/// Words separated by commas or spaces: "openid, email profile" → {"openid", "email", "profile"}.
std::vector<std::string> words_of(std::string text) {
    std::ranges::replace(text, ',', ' ');
    std::vector<std::string> words;
    for (const auto word : split_trimmed(text, ' ')) {
        words.emplace_back(word);
    }
    return words;
}

bool is_provider_id(std::string_view id) {
    return !id.empty() && id.size() <= 40 && std::ranges::all_of(id, [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
    });
}

/// The ids named by `auth.oidc.providers`, then those the listed keys reveal.
std::vector<std::string> provider_ids(const ConfigView& config) {
    std::vector<std::string> ids;
    const auto add = [&ids](std::string id) {
        if (std::ranges::find(ids, id) == ids.end()) {
            ids.push_back(std::move(id));
        }
    };
    for (const auto& id : words_of(config.get_string("auth.oidc.providers", ""))) {
        if (!is_provider_id(id)) {
            refuse("auth.oidc.providers",
                   "\"" + id + "\" is not a provider id ([a-z0-9_-], at most 40)");
        }
        add(id);
    }
    for (const auto& key : config.keys_with_prefix(std::string(prefix))) {
        const std::string rest = key.substr(prefix.size());
        const auto dot = rest.find('.');
        if (dot != std::string::npos && rest.substr(dot + 1) == "issuer" &&
            is_provider_id(rest.substr(0, dot))) {
            add(rest.substr(0, dot));
        }
    }
    return ids;
}

std::string read_secret_file(const std::string& key, const std::string& path) {
    std::ifstream file(path, std::ios::binary);
    if (!file) {
        refuse(key, "cannot read the file " + path);
    }
    std::ostringstream content;
    content << file.rdbuf();
    std::string secret(trim(content.str()));
    if (secret.empty()) {
        refuse(key, "the file " + path + " is empty");
    }
    return secret;
}

void add_role(RoleMapping& roles, const std::string& key, const std::string& group,
              const std::string& value) {
    if (group.empty()) {
        refuse(key, "a group name is empty");
    }
    try {
        roles[group] = parse_mapped_role(value);
    } catch (const std::invalid_argument& error) {
        refuse(key, error.what());
    }
}

OidcProvider read_provider(const ConfigView& config, const std::string& id) {
    const std::string base = std::string(prefix) + id + ".";
    const auto required = [&](const std::string& name) {
        std::string value(trim(config.get_string(base + name, "")));
        if (value.empty()) {
            refuse(base + name, "missing (provider \"" + id + "\" needs it)");
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
        refuse(base + "issuer", "must be an http(s) URL");
    }
    const std::string kind(trim(config.get_string(base + "kind", "oidc")));
    if (kind != "oidc" && kind != "github") {
        refuse(base + "kind", "must be oidc or github");
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
            refuse(base + "api_url", "must be an http(s) URL");
        }
    }
    provider.client_id = required("client_id");
    if (const auto file = config.find(base + "client_secret_file"); file && !trim(*file).empty()) {
        provider.client_secret =
            read_secret_file(base + "client_secret_file", std::string(trim(*file)));
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
    const std::string role_list = config.get_string(base + "roles", "");
    for (const auto entry : split_trimmed(role_list, ',')) {
        const auto equals = entry.find('=');
        if (equals == std::string_view::npos) {
            refuse(base + "roles",
                   "expected <group>=<account>:<role>, got \"" + std::string(entry) + "\"");
        }
        add_role(provider.roles, base + "roles", std::string(trim(entry.substr(0, equals))),
                 std::string(entry.substr(equals + 1)));
    }
    for (const auto& key : config.keys_with_prefix(base + "roles.")) {
        add_role(provider.roles, key, key.substr(base.size() + 6), *config.find(key));
    }
    return provider;
}

}  // namespace

std::vector<OidcProvider> read_oidc_providers(const ConfigView& config) {
    std::vector<OidcProvider> providers;
    for (const auto& id : provider_ids(config)) {
        providers.push_back(read_provider(config, id));
    }
    return providers;
}

}  // namespace loupe::sso
