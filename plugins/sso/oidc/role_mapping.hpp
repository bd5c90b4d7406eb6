#pragma once
// A provider's group-to-role mapping (`auth.oidc.<id>.roles.<group> = <account>:<role>`) and
// the roles a person's groups give. When several groups map to one account the strongest role
// wins (owner over member over contributor). Accounts the mapping names are the memberships it
// manages: a sign-in grants what the groups give there and removes what they no longer give.

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "loupe/auth/identity.hpp"

namespace loupe::sso {

struct MappedRole {
    std::string account_slug;
    Role role = Role::member;
};

/// `<account>:owner|member|contributor`. Throws std::invalid_argument naming what is wrong.
MappedRole parse_mapped_role(std::string_view value);

/// A comma-separated list of email domains, trimmed and lower-cased; empty entries dropped.
std::vector<std::string> parse_email_domains(std::string_view list);

/// group → role, as configured.
using RoleMapping = std::map<std::string, MappedRole>;

/// The accounts the mapping manages.
std::vector<std::string> managed_accounts(const RoleMapping& mapping);

/// account → the strongest role `groups` give there; accounts they give nothing are absent.
std::map<std::string, Role> roles_for(const std::vector<std::string>& groups,
                                      const RoleMapping& mapping);

}  // namespace loupe::sso
