#include "store/team_store.hpp"

#include <soci/soci.h>

#include <algorithm>
#include <array>

#include "loupe/db/row_reader.hpp"
#include "loupe/http/http_error.hpp"
#include "store/account_queries.hpp"
#include "store/team_audit.hpp"

namespace loupe::auth {
namespace {

constexpr const char* member_columns =
    "SELECT m.id, m.user_id, a.id AS user_account_id, u.slug, u.name, m.role ";
constexpr const char* member_from =
    "FROM team_members m JOIN users u ON u.id = m.user_id JOIN accounts a ON a.user_id = u.id ";

TeamMember read_member(const soci::row& row) {
    const RowReader read(row);
    TeamMember member;
    member.id = read.int64("id");
    member.user_id = read.int64("user_id");
    member.user_account_id = read.int64("user_account_id");
    member.slug = read.text("slug");
    member.name = read.text("name");
    member.role = parse_role(read.text("role")).value_or(Role::contributor);
    return member;
}

std::string order_clause(MemberQuery::Order order) {
    switch (order) {
        case MemberQuery::Order::name_asc:
            return " ORDER BY u.name ASC, u.slug ASC, m.id ASC";
        case MemberQuery::Order::name_desc:
            return " ORDER BY u.name DESC, u.slug DESC, m.id DESC";
        case MemberQuery::Order::date:
            break;
    }
    return " ORDER BY m.id DESC";
}

/// The memberships of the team, locked until the transaction ends on PostgreSQL (SQLite's
/// write transaction already holds the database): the owner and member counts the rules below
/// read cannot change under them.
std::vector<TeamMember> lock_members(soci::session& session, Dialect dialect, int64_t account_id) {
    std::string sql = std::string(member_columns) + member_from + "WHERE m.account_id = :account";
    if (dialect == Dialect::postgresql) {
        sql += " FOR UPDATE OF m";
    }
    soci::rowset<soci::row> rows = (session.prepare << sql, soci::use(account_id));
    std::vector<TeamMember> members;
    for (const auto& row : rows) {
        members.push_back(read_member(row));
    }
    return members;
}

/// The member whose personal account is `member_account_id`: 404 with Argos's wording when the
/// id names no user or a user outside the team.
TeamMember find_member(soci::session& session, const std::vector<TeamMember>& members,
                       int64_t member_account_id) {
    long long user_id = 0;
    soci::indicator user_present = soci::i_null;
    session << "SELECT user_id FROM accounts WHERE id = :id", soci::use(member_account_id),
        soci::into(user_id, user_present);
    if (!session.got_data() || user_present != soci::i_ok) {
        throw HttpError::not_found("User not found.");
    }
    for (const auto& member : members) {
        if (member.user_account_id == member_account_id) {
            return member;
        }
    }
    throw HttpError::not_found("This user is not a member of the team.");
}

long owners_in(const std::vector<TeamMember>& members) {
    long owners = 0;
    for (const auto& member : members) {
        owners += member.role == Role::owner ? 1 : 0;
    }
    return owners;
}

}  // namespace

std::optional<Role> TeamStore::default_user_level(const Account& account) {
    if (account.kind != AccountKind::team) {
        return std::nullopt;
    }
    auto session = database_.session();
    std::string level;
    *session << "SELECT default_user_level FROM team_defaults WHERE account_id = :id",
        soci::use(account.id), soci::into(level);
    if (!session->got_data()) {
        return Role::member;
    }
    return parse_role(level).value_or(Role::member);
}

void TeamStore::set_default_user_level(const Account& account, int64_t actor_user_id, Role level) {
    require_team(account);
    const std::string after(role_name(level));
    database_.transaction([&](soci::session& session) {
        // A team without a row gives Argos's default, "member".
        std::string before = "member";
        session << "SELECT default_user_level FROM team_defaults WHERE account_id = :id",
            soci::use(account.id), soci::into(before);
        if (before == after) {
            return;
        }
        session << "INSERT INTO team_defaults (account_id, default_user_level) "
                   "VALUES (:id, :level) "
                   "ON CONFLICT (account_id) DO UPDATE SET default_user_level = "
                   "excluded.default_user_level",
            soci::use(account.id), soci::use(after);
        team_audit::record(
            session,
            {account.id, actor_user_id, "account.defaultUserLevel", std::nullopt, before, after},
            now_ms());
    });
}

MemberPage TeamStore::list_members(const Account& account, const MemberQuery& query) {
    require_team(account);
    // Every role when none is asked for; the three placeholders repeat the last role asked.
    std::array<std::string, 3> roles{"owner", "member", "contributor"};
    for (std::size_t i = 0; i < roles.size() && !query.roles.empty(); ++i) {
        roles.at(i) = role_name(query.roles.at(std::min(i, query.roles.size() - 1)));
    }
    std::string where = "WHERE m.account_id = :account AND m.role IN (:role_a, :role_b, :role_c) ";
    const std::string pattern = contains_pattern(query.search);
    if (!query.search.empty()) {
        where +=
            "AND (LOWER(u.name) LIKE :name_pattern ESCAPE '\\' "
            "OR LOWER(u.slug) LIKE :slug_pattern ESCAPE '\\') ";
    }
    auto session = database_.session();
    MemberPage page;
    long long total = 0;
    if (query.search.empty()) {
        *session << std::string("SELECT COUNT(*) ") + member_from + where, soci::use(account.id),
            soci::use(roles[0]), soci::use(roles[1]), soci::use(roles[2]), soci::into(total);
    } else {
        *session << std::string("SELECT COUNT(*) ") + member_from + where, soci::use(account.id),
            soci::use(roles[0]), soci::use(roles[1]), soci::use(roles[2]), soci::use(pattern),
            soci::use(pattern), soci::into(total);
    }
    page.total = total;
    const std::string sql = std::string(member_columns) + member_from + where +
                            order_clause(query.order) + " LIMIT :limit OFFSET :offset";
    auto read_rows = [&](soci::rowset<soci::row>& rows) {
        for (const auto& row : rows) {
            page.members.push_back(read_member(row));
        }
    };
    if (query.search.empty()) {
        soci::rowset<soci::row> rows =
            (session->prepare << sql, soci::use(account.id), soci::use(roles[0]),
             soci::use(roles[1]), soci::use(roles[2]), soci::use(query.limit),
             soci::use(query.offset));
        read_rows(rows);
    } else {
        soci::rowset<soci::row> rows =
            (session->prepare << sql, soci::use(account.id), soci::use(roles[0]),
             soci::use(roles[1]), soci::use(roles[2]), soci::use(pattern), soci::use(pattern),
             soci::use(query.limit), soci::use(query.offset));
        read_rows(rows);
    }
    return page;
}

TeamMember TeamStore::set_member_role(const Account& account, int64_t actor_user_id,
                                      int64_t member_account_id, Role role) {
    require_team(account);
    return database_.transaction([&](soci::session& session) {
        const auto members = lock_members(session, database_.dialect(), account.id);
        TeamMember member = find_member(session, members, member_account_id);
        if (member.role == role) {
            return member;
        }
        if (member.role == Role::owner && owners_in(members) == 1) {
            throw HttpError::conflict(
                "Can't change the role of the last owner of a team. Make another member owner "
                "first.");
        }
        const std::string after(role_name(role));
        session << "UPDATE team_members SET role = :role WHERE id = :id", soci::use(after),
            soci::use(member.id);
        team_audit::record(session,
                           {account.id, actor_user_id, "member.role", member.user_id,
                            std::string(role_name(member.role)), after},
                           now_ms());
        member.role = role;
        return member;
    });
}

void TeamStore::remove_member(const Account& account, int64_t actor_user_id,
                              int64_t member_account_id) {
    require_team(account);
    database_.transaction([&](soci::session& session) {
        const auto members = lock_members(session, database_.dialect(), account.id);
        const TeamMember member = find_member(session, members, member_account_id);
        if (members.size() <= 1) {
            throw HttpError::forbidden("Can't remove the last user of a team.");
        }
        // With two members the one left becomes the owner (below); with more, someone else
        // must already be one.
        if (members.size() > 2 && member.role == Role::owner && owners_in(members) == 1) {
            throw HttpError::conflict(
                "Can't remove the last owner of a team. Make another member owner first.");
        }
        session << "DELETE FROM team_members WHERE id = :id", soci::use(member.id);
        // The member's own grants on the team's projects go with the membership.
        session << "DELETE FROM project_users WHERE user_id = :user AND project_id IN "
                   "(SELECT id FROM projects WHERE account_id = :account)",
            soci::use(member.user_id), soci::use(account.id);
        const int64_t now = now_ms();
        team_audit::record(session,
                           {account.id, actor_user_id, "member.remove", member.user_id,
                            std::string(role_name(member.role)), std::nullopt},
                           now);
        if (members.size() == 2) {
            for (const auto& survivor : members) {
                if (survivor.id != member.id && survivor.role != Role::owner) {
                    session << "UPDATE team_members SET role = 'owner' WHERE id = :id",
                        soci::use(survivor.id);
                    team_audit::record(
                        session,
                        {account.id, actor_user_id, "member.role", survivor.user_id,
                         std::string(role_name(survivor.role)), std::string("owner")},
                        now);
                }
            }
        }
    });
}

}  // namespace loupe::auth
