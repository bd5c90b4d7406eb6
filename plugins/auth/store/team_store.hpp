#pragma once
// A team's members and defaults as the account routes list and change them. The team's own
// rules (a team keeps an owner) are applied here, each change in one transaction that writes
// its audit row; who may call is the access guard's decision (RouteAccess::account).
//
// Memberships are the core's identity rows (team_members); the plugin reads and changes them
// with the same rules as `loupe admin member add` (a team keeps an owner). The default role and
// the audit trail are the plugin's own tables (store/team_migrations.cpp).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "loupe/auth/identity.hpp"
#include "loupe/db/database.hpp"
#include "loupe/db/migrations.hpp"

namespace loupe::auth {

/// One membership of a team: the membership's id, the member's user and personal account.
struct TeamMember {
    int64_t id = 0;
    int64_t user_id = 0;
    int64_t user_account_id = 0;  ///< the public id of the member (Argos's `user.id`)
    std::string slug;
    std::string name;
    Role role = Role::member;
};

/// Which members to list: `search` matches name or slug (ASCII case-insensitive, anywhere),
/// `roles` keeps those roles (empty: all); `date` is most recently added first, the name
/// orders break ties by slug.
struct MemberQuery {
    enum class Order { date, name_asc, name_desc };
    std::string search;
    std::vector<Role> roles;
    Order order = Order::date;
    int64_t offset = 0;
    int64_t limit = 30;
};

struct MemberPage {
    std::vector<TeamMember> members;
    int64_t total = 0;  ///< members matching the query, over all pages
};

class TeamStore {
public:
    explicit TeamStore(Database& database) : database_(database) {}

    /// The role given to people joining the team; nullopt for a personal account.
    std::optional<Role> default_user_level(const Account& account);
    /// Sets it; HttpError 400 "This account is not a team." on a personal account.
    void set_default_user_level(const Account& account, int64_t actor_user_id, Role level);
    MemberPage list_members(const Account& account, const MemberQuery& query);
    /// Changes the role of the member whose personal account is `member_account_id`; a no-op
    /// (and no audit row) when they hold it already. 404 for a user outside the team, 409 when
    /// it would demote the last owner.
    TeamMember set_member_role(const Account& account, int64_t actor_user_id,
                               int64_t member_account_id, Role role);
    /// Removes the member: never the last member (403, as Argos), nor the last owner while two
    /// others remain (409); removing the second-to-last member makes the one left an owner (as
    /// Argos). Their levels on the team's projects go with the membership.
    void remove_member(const Account& account, int64_t actor_user_id, int64_t member_account_id);

private:
    Database& database_;
};

/// The plugin's migrations: the default role of a team and the audit trail.
void add_team_migrations(Migrations& migrations);

}  // namespace loupe::auth
