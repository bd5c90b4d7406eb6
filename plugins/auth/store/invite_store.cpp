#include "store/invite_store.hpp"

#include <soci/soci.h>

#include <algorithm>
#include <array>

#include "loupe/auth/events.hpp"
#include "loupe/crypto/digest.hpp"
#include "loupe/crypto/random.hpp"
#include "loupe/db/migrations.hpp"
#include "loupe/db/row_reader.hpp"
#include "loupe/http/http_error.hpp"
#include "loupe/text/strings.hpp"
#include "store/account_queries.hpp"
#include "store/team_audit.hpp"

namespace loupe::auth {
namespace {

constexpr const char* invite_columns =
    "SELECT id, email, level, created_at, expires_at FROM team_invites ";
constexpr const char* pending_invite = "accepted_at IS NULL AND cancelled_at IS NULL";

// Addresses anyone can get: a team open to one of these would be open to everybody.
constexpr std::array<const char*, 24> public_mail_domains{
    "gmail.com",   "googlemail.com", "yahoo.com",  "yahoo.fr",       "ymail.com",  "outlook.com",
    "hotmail.com", "hotmail.fr",     "live.com",   "msn.com",        "icloud.com", "me.com",
    "mac.com",     "aol.com",        "proton.me",  "protonmail.com", "pm.me",      "gmx.com",
    "gmx.de",      "mail.com",       "yandex.com", "yandex.ru",      "mail.ru",    "qq.com"};

TeamInvite read_invite(const soci::row& row) {
    const RowReader read(row);
    TeamInvite invite;
    invite.id = read.int64("id");
    invite.email = read.text("email");
    invite.level = parse_role(read.text("level")).value_or(Role::member);
    invite.created_at = read.int64("created_at");
    invite.expires_at = read.int64("expires_at");
    return invite;
}

/// The role the team gives people joining through its link or a domain.
Role default_level(soci::session& session, int64_t account_id) {
    std::string level;
    session << "SELECT default_user_level FROM team_defaults WHERE account_id = :id",
        soci::use(account_id), soci::into(level);
    return session.got_data() ? parse_role(level).value_or(Role::member) : Role::member;
}

/// Gives `user_id` `role` in `team` unless they already hold as much; the role held after.
Role join_team(soci::session& session, Identity& identity, const Account& team, int64_t user_id,
               Role role) {
    const auto held = identity.member_role(session, team, user_id);
    // Roles order owner < member < contributor in the enum: a smaller value is more.
    if (held && static_cast<int>(*held) <= static_cast<int>(role)) {
        return *held;
    }
    identity.set_member_role(session, team, user_id, role);
    team_audit::record(session,
                       {team.id, user_id, "member.join", user_id,
                        held ? std::optional<std::string>(role_name(*held)) : std::nullopt,
                        std::string(role_name(role))},
                       now_ms());
    return role;
}

/// What a token names: an email invite (its row) or a team's shared link.
struct TokenTarget {
    int64_t account_id = 0;
    std::string account_slug;
    std::optional<int64_t> invite_id;  ///< nullopt for the team's link
    std::optional<std::string> email;
    std::optional<Role> level;  ///< the invite's; the link gives the default role
    int64_t expires_at = 0;
};

std::optional<TokenTarget> find_token_target(soci::session& session, const std::string& token) {
    const std::string hash = crypto::sha256_hex(token);
    TokenTarget target;
    {
        soci::rowset<soci::row> rows =
            (session.prepare << "SELECT i.id, i.account_id, a.slug, i.email, i.level, "
                                "i.expires_at FROM team_invites i JOIN accounts a ON a.id = "
                                "i.account_id WHERE (i.token_hash = :hash OR i.mail_token_hash "
                                "= :mail_hash) AND i." +
                                    std::string("accepted_at IS NULL AND i.cancelled_at IS NULL"),
             soci::use(hash), soci::use(hash));
        for (const auto& row : rows) {
            const RowReader read(row);
            target.invite_id = read.int64("id");
            target.account_id = read.int64("account_id");
            target.account_slug = read.text("slug");
            target.email = read.text("email");
            target.level = parse_role(read.text("level")).value_or(Role::member);
            target.expires_at = read.int64("expires_at");
            return target;
        }
    }
    soci::rowset<soci::row> rows =
        (session.prepare << "SELECT l.account_id, a.slug FROM team_invite_links l JOIN accounts a "
                            "ON a.id = l.account_id WHERE l.token_hash = :hash",
         soci::use(hash));
    for (const auto& row : rows) {
        const RowReader read(row);
        target.account_id = read.int64("account_id");
        target.account_slug = read.text("slug");
        return target;
    }
    return std::nullopt;
}

}  // namespace

std::optional<std::string> team_domain_problem(const std::string& domain) {
    const auto label_char = [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
    };
    if (domain.empty() || domain.size() > 253 || domain.find('.') == std::string::npos ||
        domain.front() == '.' || domain.back() == '.' || domain.find("..") != std::string::npos ||
        !std::ranges::all_of(domain, [&](char c) { return label_char(c) || c == '.'; })) {
        return "Invalid domain. Expected an email domain such as acme.com.";
    }
    if (std::ranges::any_of(public_mail_domains,
                            [&](const char* provider) { return domain == provider; })) {
        return "Public email providers cannot be added: anyone can get an address there.";
    }
    return std::nullopt;
}

std::vector<TeamInvite> InviteStore::invite(const Account& team, int64_t actor_user_id,
                                            const std::vector<InviteRequest>& requests) {
    require_team(team);
    return database_.transaction([&](soci::session& session) {
        const int64_t now = now_ms();
        std::vector<TeamInvite> made;
        for (const auto& request : requests) {
            TeamInvite invite{0,
                              request.email,
                              request.level,
                              now,
                              now + invite_lifetime_ms,
                              crypto::random_hex(20)};
            const std::string level(role_name(request.level));
            const std::string hash = crypto::sha256_hex(invite.token);
            long long existing = 0;
            session << "SELECT id FROM team_invites WHERE account_id = :account AND email = :email "
                       "AND " +
                           std::string(pending_invite),
                soci::use(team.id), soci::use(request.email), soci::into(existing);
            if (session.got_data()) {
                // Inviting a pending address again refreshes it: the old link stops working.
                session << "UPDATE team_invites SET level = :level, token_hash = :hash, "
                           "mail_token_hash = NULL, created_at = :now, expires_at = :expires, "
                           "created_by = :actor WHERE id = :id",
                    soci::use(level), soci::use(hash), soci::use(now), soci::use(invite.expires_at),
                    soci::use(actor_user_id), soci::use(existing);
                invite.id = existing;
            } else {
                session << "INSERT INTO team_invites (account_id, email, level, token_hash, "
                           "created_by, created_at, expires_at) VALUES (:account, :email, "
                           ":level, :hash, :actor, :now, :expires)",
                    soci::use(team.id), soci::use(request.email), soci::use(level), soci::use(hash),
                    soci::use(actor_user_id), soci::use(now), soci::use(invite.expires_at);
                long long id = 0;
                session << "SELECT id FROM team_invites WHERE token_hash = :hash", soci::use(hash),
                    soci::into(id);
                invite.id = id;
            }
            team_audit::record(session,
                               {team.id, actor_user_id, "invite.create", std::nullopt, std::nullopt,
                                request.email + " as " + level},
                               now);
            events_.publish(session, TeamInvited{.invite_id = invite.id,
                                                 .account_id = team.id,
                                                 .email = request.email,
                                                 .level = level,
                                                 .invited_by = actor_user_id});
            made.push_back(std::move(invite));
        }
        return made;
    });
}

InvitePage InviteStore::pending(const Account& team, const std::string& search, int64_t offset,
                                int64_t limit) {
    require_team(team);
    auto session = database_.session();
    const std::string where = "WHERE account_id = :account AND " + std::string(pending_invite) +
                              " AND LOWER(email) LIKE :pattern ESCAPE '\\' ";
    const std::string pattern = contains_pattern(search);
    InvitePage page;
    long long total = 0;
    *session << "SELECT COUNT(*) FROM team_invites " + where, soci::use(team.id),
        soci::use(pattern), soci::into(total);
    page.total = total;
    soci::rowset<soci::row> rows =
        (session->prepare << std::string(invite_columns) + where +
                                 "ORDER BY created_at DESC, id DESC LIMIT :limit OFFSET :offset",
         soci::use(team.id), soci::use(pattern), soci::use(limit), soci::use(offset));
    for (const auto& row : rows) {
        page.invites.push_back(read_invite(row));
    }
    return page;
}

void InviteStore::cancel(const Account& team, int64_t actor_user_id, int64_t invite_id) {
    require_team(team);
    database_.transaction([&](soci::session& session) {
        const int64_t now = now_ms();
        std::string email;
        session << "SELECT email FROM team_invites WHERE id = :id AND account_id = :account AND " +
                       std::string(pending_invite),
            soci::use(invite_id), soci::use(team.id), soci::into(email);
        if (!session.got_data()) {
            throw HttpError::not_found("Invite not found.");
        }
        session << "UPDATE team_invites SET cancelled_at = :now WHERE id = :id", soci::use(now),
            soci::use(invite_id);
        team_audit::record(
            session, {team.id, actor_user_id, "invite.cancel", std::nullopt, email, std::nullopt},
            now);
    });
}

std::string InviteStore::reset_link(const Account& team, int64_t actor_user_id) {
    require_team(team);
    std::string token = crypto::random_hex(20);
    const std::string hash = crypto::sha256_hex(token);
    database_.transaction([&](soci::session& session) {
        const int64_t now = now_ms();
        session << "INSERT INTO team_invite_links (account_id, token_hash, created_at) "
                   "VALUES (:account, :hash, :now) ON CONFLICT (account_id) DO UPDATE SET "
                   "token_hash = excluded.token_hash, created_at = excluded.created_at",
            soci::use(team.id), soci::use(hash), soci::use(now);
        team_audit::record(
            session,
            {team.id, actor_user_id, "inviteLink.reset", std::nullopt, std::nullopt, std::nullopt},
            now);
    });
    return token;
}

std::vector<TeamDomain> InviteStore::domains(const Account& team) {
    require_team(team);
    auto session = database_.session();
    soci::rowset<soci::row> rows =
        (session->prepare << "SELECT domain, created_at FROM team_domains WHERE account_id = "
                             ":account ORDER BY domain",
         soci::use(team.id));
    std::vector<TeamDomain> out;
    for (const auto& row : rows) {
        const RowReader read(row);
        out.push_back({read.text("domain"), read.int64("created_at")});
    }
    return out;
}

TeamDomain InviteStore::add_domain(const Account& team, int64_t actor_user_id,
                                   const std::string& domain) {
    require_team(team);
    if (auto problem = team_domain_problem(domain)) {
        throw HttpError::bad_request(*problem);
    }
    return database_.transaction([&](soci::session& session) {
        const auto email = identity_.user_email(session, actor_user_id);
        if (!email || !email->ends_with("@" + domain)) {
            throw HttpError::forbidden("Your own email address must be on " + domain +
                                       " to open the team to it.");
        }
        long long present = 0;
        session << "SELECT COUNT(*) FROM team_domains WHERE account_id = :account AND domain = "
                   ":domain",
            soci::use(team.id), soci::use(domain), soci::into(present);
        if (present > 0) {
            throw HttpError::conflict("The team is already open to " + domain + ".");
        }
        const int64_t now = now_ms();
        session << "INSERT INTO team_domains (account_id, domain, created_by, created_at) "
                   "VALUES (:account, :domain, :actor, :now)",
            soci::use(team.id), soci::use(domain), soci::use(actor_user_id), soci::use(now);
        team_audit::record(
            session, {team.id, actor_user_id, "domain.add", std::nullopt, std::nullopt, domain},
            now);
        return TeamDomain{domain, now};
    });
}

void InviteStore::remove_domain(const Account& team, int64_t actor_user_id,
                                const std::string& domain) {
    require_team(team);
    database_.transaction([&](soci::session& session) {
        long long present = 0;
        session << "SELECT COUNT(*) FROM team_domains WHERE account_id = :account AND domain = "
                   ":domain",
            soci::use(team.id), soci::use(domain), soci::into(present);
        if (present == 0) {
            throw HttpError::not_found("Domain not found.");
        }
        session << "DELETE FROM team_domains WHERE account_id = :account AND domain = :domain",
            soci::use(team.id), soci::use(domain);
        team_audit::record(
            session, {team.id, actor_user_id, "domain.remove", std::nullopt, domain, std::nullopt},
            now_ms());
    });
}

std::vector<std::pair<Account, Role>> InviteStore::teams_open_to(soci::session& session,
                                                                 const std::string& email) {
    const auto at = email.rfind('@');
    std::vector<std::pair<Account, Role>> out;
    if (at == std::string::npos) {
        return out;
    }
    const std::string domain = email.substr(at + 1);
    std::vector<std::pair<int64_t, std::string>> teams;
    soci::rowset<soci::row> rows =
        (session.prepare << "SELECT d.account_id, a.slug FROM team_domains d JOIN accounts a ON "
                            "a.id = d.account_id WHERE d.domain = :domain ORDER BY a.slug",
         soci::use(domain));
    for (const auto& row : rows) {
        const RowReader read(row);
        teams.emplace_back(read.int64("account_id"), read.text("slug"));
    }
    for (const auto& [account_id, slug] : teams) {
        if (auto account = identity_.find_account(slug)) {
            out.emplace_back(*account, default_level(session, account_id));
        }
    }
    return out;
}

std::vector<std::string> InviteStore::join_open_teams(soci::session& session, int64_t user_id,
                                                      const std::string& verified_email,
                                                      const std::vector<std::string>& skip) {
    std::vector<std::string> joined;
    for (const auto& [team, level] : teams_open_to(session, to_lower(verified_email))) {
        if (std::ranges::find(skip, team.slug) != skip.end() ||
            identity_.member_role(session, team, user_id)) {
            continue;
        }
        join_team(session, identity_, team, user_id, level);
        joined.push_back(team.slug);
    }
    return joined;
}

InvitePreview InviteStore::preview(const std::string& token) {
    auto session = database_.session();
    const auto target = find_token_target(*session, token);
    const auto team = target ? identity_.find_account(target->account_slug) : std::nullopt;
    if (!target || !team) {
        throw HttpError::not_found("This invite is not valid anymore.");
    }
    InvitePreview preview{*team, target->level.value_or(default_level(*session, team->id)),
                          target->email, target->invite_id && target->expires_at <= now_ms()};
    return preview;
}

std::pair<Account, Role> InviteStore::accept(int64_t user_id, const std::string& token) {
    const auto preview_of_token = preview(token);
    const Account& team = preview_of_token.team;
    return database_.transaction([&](soci::session& session) {
        const int64_t now = now_ms();
        // Read again inside the transaction: the invite may have been used or cancelled since.
        const auto target = find_token_target(session, token);
        if (!target || target->account_id != team.id) {
            throw HttpError::not_found("This invite is not valid anymore.");
        }
        Role level = default_level(session, team.id);
        if (target->invite_id) {
            if (target->expires_at <= now) {
                throw HttpError(410, "This invite expired: ask for a new one.");
            }
            const auto email = identity_.user_email(session, user_id);
            if (!email || *email != *target->email) {
                throw HttpError::forbidden("This invite was sent to " + *target->email +
                                           ": sign in with that address to accept it.");
            }
            level = *target->level;
            session << "UPDATE team_invites SET accepted_at = :now, accepted_by = :user "
                       "WHERE id = :id",
                soci::use(now), soci::use(user_id), soci::use(*target->invite_id);
        }
        return std::pair<Account, Role>{team, join_team(session, identity_, team, user_id, level)};
    });
}

void add_invite_migrations(Migrations& migrations) {
    migrations.add(2, "team invites, invite links and email domains", R"SQL(
CREATE TABLE team_invites (
    id {{id}},
    account_id BIGINT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    email TEXT NOT NULL,
    level TEXT NOT NULL CHECK (level IN ('owner', 'member', 'contributor')),
    token_hash TEXT NOT NULL UNIQUE,
    created_by BIGINT REFERENCES users (id) ON DELETE SET NULL,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    accepted_at BIGINT,
    accepted_by BIGINT REFERENCES users (id) ON DELETE SET NULL,
    cancelled_at BIGINT
);
CREATE INDEX team_invites_account ON team_invites (account_id, created_at);
CREATE TABLE team_invite_links (
    account_id BIGINT PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
    token_hash TEXT NOT NULL UNIQUE,
    created_at BIGINT NOT NULL
);
CREATE TABLE team_domains (
    account_id BIGINT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    domain TEXT NOT NULL,
    created_by BIGINT REFERENCES users (id) ON DELETE SET NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (account_id, domain)
);
CREATE INDEX team_domains_domain ON team_domains (domain);
)SQL");
}

}  // namespace loupe::auth
