#pragma once
// How people join a team besides `loupe admin member add`: invites sent to an email address,
// the team's shared invite link, and the email domains the team is open to. Rules:
//  - an invite is for one address and one role, valid 7 days; inviting a pending address again
//    refreshes its role, expiry and token; only the person holding that address accepts it;
//  - the shared link (one per team, reset by an owner: the previous one stops working) and a
//    domain give the team's default role;
//  - a domain is added only by an owner whose own address is on it, never a public mail
//    provider's;
//  - joining never lowers a role someone already holds.
// Tokens are stored as SHA-256 hashes; the clear token exists only in the answer that made it.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "loupe/auth/identity.hpp"
#include "loupe/auth/team_domains.hpp"
#include "loupe/db/database.hpp"
#include "loupe/db/migrations.hpp"
#include "loupe/events/events.hpp"

namespace loupe::auth {

constexpr int64_t invite_lifetime_ms = 7LL * 24 * 60 * 60 * 1000;

struct TeamInvite {
    int64_t id = 0;
    std::string email;
    Role level = Role::member;
    int64_t created_at = 0;
    int64_t expires_at = 0;
    std::string token;  ///< the clear token, only right after it was made
};

struct InvitePage {
    std::vector<TeamInvite> invites;
    int64_t total = 0;
};

struct InviteRequest {
    std::string email;  ///< already checked and lower-cased
    Role level = Role::member;
};

struct TeamDomain {
    std::string domain;
    int64_t created_at = 0;
};

/// What a token opens, for the page that asks the person to join.
struct InvitePreview {
    Account team;
    Role level = Role::member;
    std::optional<std::string> email;  ///< the address an email invite was sent to
    bool expired = false;
};

class InviteStore : public TeamDomains {
public:
    /// `events`: where an invite publishes team.invited (auth/events.hpp).
    InviteStore(Database& database, Identity& identity, Events& events)
        : database_(database), identity_(identity), events_(events) {}

    /// New or refreshed invites, in the order asked, with their clear tokens.
    std::vector<TeamInvite> invite(const Account& team, int64_t actor_user_id,
                                   const std::vector<InviteRequest>& requests);
    /// Pending invites (neither accepted nor cancelled; expired ones included), most recent
    /// first; `search` matches the address anywhere (ASCII case-insensitive).
    InvitePage pending(const Account& team, const std::string& search, int64_t offset,
                       int64_t limit);
    /// 404 "Invite not found." unless the invite is the team's and pending.
    void cancel(const Account& team, int64_t actor_user_id, int64_t invite_id);
    /// A new shared link token for the team; the previous one stops working.
    std::string reset_link(const Account& team, int64_t actor_user_id);

    std::vector<TeamDomain> domains(const Account& team);
    /// 400 for a malformed domain or a public mail provider's, 403 when the actor's own address
    /// is not on it, 409 when the team already has it.
    TeamDomain add_domain(const Account& team, int64_t actor_user_id, const std::string& domain);
    /// 404 "Domain not found." when the team does not have it.
    void remove_domain(const Account& team, int64_t actor_user_id, const std::string& domain);
    /// The teams open to `email`'s domain, with the role each gives (its default role).
    std::vector<std::pair<Account, Role>> teams_open_to(soci::session& session,
                                                        const std::string& email);
    std::vector<std::string> join_open_teams(soci::session& session, int64_t user_id,
                                             const std::string& verified_email,
                                             const std::vector<std::string>& skip) override;

    /// What `token` (an invite's or a team link's) opens; 404 when it opens nothing.
    InvitePreview preview(const std::string& token);
    /// The user joins the team `token` opens and the role they hold there afterwards: 404 for an
    /// unknown, cancelled or used token, 410 for an expired invite, 403 when an email invite
    /// was sent to another address than the user's.
    std::pair<Account, Role> accept(int64_t user_id, const std::string& token);

private:
    Database& database_;
    Identity& identity_;
    Events& events_;
};

/// Why `domain` (lower-cased) cannot be a team's email domain; nullopt when it can.
std::optional<std::string> team_domain_problem(const std::string& domain);

/// The plugin's second migration: invites, invite links and team domains.
void add_invite_migrations(Migrations& migrations);

}  // namespace loupe::auth
