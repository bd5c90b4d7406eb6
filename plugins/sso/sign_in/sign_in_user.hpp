#pragma once
// Who a verified identity from a provider signs in as, inside the caller's transaction:
//  - the user this provider's subject was linked to at an earlier sign-in; else
//  - the user holding the verified email address (linked now); else
//  - a new user, the slug taken from the address, the address recorded.
// Then the provider's groups decide the person's role in every team the role mapping names:
// granted or changed to what the groups give there, removed when they give nothing (so leaving
// the group at the provider leaves the team at the next sign-in). A team's last owner is never
// removed or demoted this way; teams the mapping does not name are left as they are, except that
// the person joins, at its default role, every team open to their address's domain (when the
// auth plugin's TeamDomains is given) that they are not in yet.

#include <soci/soci.h>

#include <cstdint>
#include <string>
#include <vector>

#include "loupe/auth/identity.hpp"
#include "loupe/auth/team_domains.hpp"
#include "oidc/role_mapping.hpp"
#include "oidc/sign_in_claims.hpp"

namespace loupe::sso {

struct SignedInUser {
    int64_t user_id = 0;
    bool created = false;
    /// What could not be applied ("kept owner of acme: the team's last owner"), for the log.
    std::vector<std::string> notes;
    std::vector<std::string> joined_by_domain;  ///< teams joined through their email domain
};

SignedInUser sign_in_user(soci::session& session, Identity& identity,
                          const std::string& provider_id, const SignInIdentity& person,
                          const RoleMapping& roles, int64_t now,
                          auth::TeamDomains* domains = nullptr);

}  // namespace loupe::sso
