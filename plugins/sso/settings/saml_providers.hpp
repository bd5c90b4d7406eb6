#pragma once
// The SAML 2.0 identity providers people sign in with, read from the configuration:
//
//   auth.saml.providers = corp                           (ids; optional, as for OIDC)
//   auth.saml.corp.idp_metadata_file = /etc/loupe/corp-idp.xml   (the IdP's metadata document)
//   auth.saml.corp.sp_key_file = /etc/loupe/saml-sp.key  (the SP's RSA key, PEM; signs requests)
//   auth.saml.corp.sp_cert_file = /etc/loupe/saml-sp.crt (its certificate, in the SP metadata)
//   auth.saml.corp.name = Corp SSO                       (the button's label; default: the id)
//   auth.saml.corp.email_attribute = email               (default; else the NameID when its
//                                                         format is emailAddress)
//   auth.saml.corp.name_attribute = displayName          (default)
//   auth.saml.corp.roles_attribute = groups              (default)
//   auth.saml.corp.roles.<group> = <account>:owner|member|contributor   (as for OIDC)
//   auth.saml.corp.email_domains = example.com           (none: any address)
//
// A provider that is configured wrongly stops the start with a message naming the key.

#include <string>
#include <vector>

#include "loupe/config/config_view.hpp"
#include "oidc/role_mapping.hpp"
#include "oidc/sign_in_claims.hpp"

namespace loupe::sso {

struct SamlProvider {
    std::string id;            ///< [a-z0-9_-], in the sign-in URLs
    std::string display_name;  ///< "Sign in with <display_name>"
    std::string idp_metadata;  ///< the IdP's metadata document (XML)
    std::string sp_key;        ///< PEM
    std::string sp_cert;       ///< PEM
    std::string email_attribute = "email";
    std::string name_attribute = "displayName";
    SignInPolicy policy;  ///< roles_claim: the roles attribute
    RoleMapping roles;
};

/// Every configured SAML provider. Throws std::runtime_error naming the key that is wrong.
std::vector<SamlProvider> read_saml_providers(const ConfigView& config);

}  // namespace loupe::sso
