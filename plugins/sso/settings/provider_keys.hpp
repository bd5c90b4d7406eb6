#pragma once
// What the OpenID Connect and SAML providers' settings share: the ids a prefix names, files
// read whole, the role mapping of a provider, and refusals that name the key.

#include <string>
#include <string_view>
#include <vector>

#include "loupe/config/config_view.hpp"
#include "oidc/role_mapping.hpp"

namespace loupe::sso {

[[noreturn]] void refuse_key(const std::string& key, const std::string& why);

/// Words separated by commas or spaces: "openid, email profile" → {"openid", "email", "profile"}.
std::vector<std::string> words_of(std::string text);

/// The ids `<prefix>providers` lists, then those revealed by a key `<prefix><id>.<marker>`.
/// `prefix` ends with a dot ("auth.oidc.").
std::vector<std::string> configured_provider_ids(const ConfigView& config,
                                                 const std::string& prefix,
                                                 const std::string& marker);

/// The file's content, trimmed; refuses a missing or empty file naming `key`.
std::string read_key_file(const std::string& key, const std::string& path);

/// `<base>roles = g=acct:role, ...` and every `<base>roles.<group> = acct:role`.
RoleMapping read_role_mapping(const ConfigView& config, const std::string& base);

}  // namespace loupe::sso
