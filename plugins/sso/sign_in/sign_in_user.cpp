#include "sign_in/sign_in_user.hpp"

#include "loupe/http/http_error.hpp"
#include "loupe/text/strings.hpp"
#include "store/linked_identities.hpp"

namespace loupe::sso {
namespace {

int64_t existing_or_new_user(soci::session& session, Identity& identity,
                             const std::string& provider_id, const SignInIdentity& person,
                             bool& created) {
    if (const auto linked = linked_identities::user_of(session, provider_id, person.subject)) {
        return *linked;
    }
    if (const auto holder = identity.find_user_by_email(session, person.email)) {
        return holder->id;
    }
    const std::string local_part = person.email.substr(0, person.email.find('@'));
    created = true;
    return identity
        .create_user(session, local_part, person.name.empty() ? local_part : person.name,
                     person.email)
        .id;
}

}  // namespace

SignedInUser sign_in_user(soci::session& session, Identity& identity,
                          const std::string& provider_id, const SignInIdentity& person,
                          const RoleMapping& roles, int64_t now, auth::TeamDomains* domains) {
    SignedInUser result;
    result.user_id = existing_or_new_user(session, identity, provider_id, person, result.created);
    // A linked person whose address changed at the provider keeps it current here, unless
    // another user already holds the new address.
    if (identity.user_email(session, result.user_id) != to_lower(person.email)) {
        try {
            identity.set_user_email(session, result.user_id, person.email);
        } catch (const HttpError&) {
            result.notes.push_back("kept the old address: " + person.email +
                                   " belongs to another user");
        }
    }
    linked_identities::link(session, provider_id, person.subject, result.user_id,
                            to_lower(person.email), now);

    const auto granted = roles_for(person.groups, roles);
    for (const auto& slug : managed_accounts(roles)) {
        const auto team = identity.find_account(slug);
        if (!team || team->kind != AccountKind::team) {
            result.notes.push_back("the role mapping names \"" + slug + "\", which is no team");
            continue;
        }
        const auto found = granted.find(slug);
        const std::optional<Role> role =
            found == granted.end() ? std::nullopt : std::optional<Role>(found->second);
        if (!identity.set_member_role(session, *team, result.user_id, role)) {
            result.notes.push_back("kept owner of " + slug + ": the team's last owner");
        }
    }
    if (domains != nullptr) {
        result.joined_by_domain = domains->join_open_teams(session, result.user_id, person.email,
                                                           managed_accounts(roles));
    }
    return result;
}

}  // namespace loupe::sso
