#include "settings/saml_providers.hpp"

#include "loupe/text/strings.hpp"
#include "settings/provider_keys.hpp"

namespace loupe::sso {
namespace {

const std::string saml_prefix = "auth.saml.";

SamlProvider read_saml_provider(const ConfigView& config, const std::string& id) {
    const std::string base = saml_prefix + id + ".";
    const auto file_of = [&](const std::string& name) {
        const std::string path(trim(config.get_string(base + name, "")));
        if (path.empty()) {
            refuse_key(base + name, "missing (provider \"" + id + "\" needs it)");
        }
        return read_key_file(base + name, path);
    };
    const auto text_of = [&](const std::string& name, const std::string& fallback) {
        std::string value(trim(config.get_string(base + name, fallback)));
        return value.empty() ? fallback : value;
    };
    SamlProvider provider;
    provider.id = id;
    provider.display_name = text_of("name", id);
    provider.idp_metadata = file_of("idp_metadata_file");
    provider.sp_key = file_of("sp_key_file");
    provider.sp_cert = file_of("sp_cert_file");
    provider.email_attribute = text_of("email_attribute", "email");
    provider.name_attribute = text_of("name_attribute", "displayName");
    provider.policy.roles_claim = text_of("roles_attribute", "groups");
    provider.policy.allowed_email_domains =
        parse_email_domains(config.get_string(base + "email_domains", ""));
    provider.roles = read_role_mapping(config, base);
    return provider;
}

}  // namespace

std::vector<SamlProvider> read_saml_providers(const ConfigView& config) {
    std::vector<SamlProvider> providers;
    for (const auto& id : configured_provider_ids(config, saml_prefix, "idp_metadata_file")) {
        providers.push_back(read_saml_provider(config, id));
    }
    return providers;
}

}  // namespace loupe::sso
