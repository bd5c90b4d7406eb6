#pragma once
// The OpenID Connect providers people sign in with, read from the configuration:
//
//   auth.oidc.providers = corp                     (ids; optional when the keys below are in
//                                                   the properties file or --set)
//   auth.oidc.corp.issuer = https://id.example.com/realms/staff
//   auth.oidc.corp.client_id = loupe
//   auth.oidc.corp.client_secret_file = /etc/loupe/oidc-corp.secret   (none: a public client)
//   auth.oidc.corp.name = Example SSO              (the button's label; default: the id)
//   auth.oidc.corp.scopes = openid email profile   (the default; openid is always sent)
//   auth.oidc.corp.email_domains = example.com     (none: any verified address)
//   auth.oidc.corp.roles_claim = groups            (the default)
//   auth.oidc.corp.roles.<group> = <account>:owner|member|contributor
//   auth.oidc.corp.roles = <group>=<account>:<role>, ...   (the same, in one key, e.g. from
//                                                   the environment)
//   auth.oidc.<id>.kind = oidc | github            (default oidc) github: a GitHub OAuth app,
//                                                   `issuer` the web address (https://github.com
//                                                   or a GitHub Enterprise Server), groups the
//                                                   person's organisations and "<org>/<team>"
//   auth.oidc.<id>.api_url = https://api.github.com (github only; default api.github.com for
//                                                   github.com, else <issuer>/api/v3)
//
// A provider that is configured wrongly stops the start with a message naming the key.

#include <string>
#include <vector>

#include "loupe/config/config_view.hpp"
#include "oidc/role_mapping.hpp"
#include "oidc/sign_in_claims.hpp"

namespace loupe::sso {

struct OidcProvider {
    enum class Kind { oidc, github };
    Kind kind = Kind::oidc;
    std::string id;            ///< [a-z0-9-], used in the sign-in URLs
    std::string display_name;  ///< "Sign in with <display_name>"
    std::string issuer;        ///< without a trailing slash (GitHub: its web address)
    std::string api_url;       ///< GitHub's REST API, without a trailing slash
    std::string client_id;
    std::string client_secret;  ///< empty: a public client (PKCE only, no secret sent)
    std::vector<std::string> scopes;
    SignInPolicy policy;
    RoleMapping roles;
};

/// Every configured provider, in the order of `auth.oidc.providers` then of their ids. Throws
/// std::runtime_error naming the key that is wrong.
std::vector<OidcProvider> read_oidc_providers(const ConfigView& config);

}  // namespace loupe::sso
