#include "identity/identity_writes.hpp"

#include "identity/identity_rows.hpp"
#include "identity/identity_store.hpp"
#include "identity/names.hpp"
#include "identity/token_store.hpp"

namespace loupe::identity_writes {
namespace {

AdminError slug_taken(const std::string& slug) {
    return AdminError("Slug \"" + slug + "\" is already used by another user or account");
}

/// Inserts the account; nullopt when the slug is taken (by a user or another account).
std::optional<int64_t> insert_account(soci::session& session, const std::string& slug,
                                      const std::string& name, const std::string& kind,
                                      std::optional<int64_t> user_id, int64_t now) {
    long long user = user_id.value_or(0);
    soci::indicator user_indicator = user_id ? soci::i_ok : soci::i_null;
    long long id = 0;
    session << "INSERT INTO accounts (slug, name, kind, user_id, created_at) "
               "VALUES (:slug, :name, :kind, :user, :now) ON CONFLICT (slug) DO NOTHING "
               "RETURNING id",
        soci::use(slug), soci::use(name), soci::use(kind), soci::use(user, user_indicator),
        soci::use(now), soci::into(id);
    return session.got_data() ? std::optional<int64_t>(id) : std::nullopt;
}

int count_owners(soci::session& session, int64_t account_id) {
    long long owners = 0;
    session << "SELECT COUNT(*) FROM team_members WHERE account_id = :account AND role = 'owner'",
        soci::use(account_id), soci::into(owners);
    return static_cast<int>(owners);
}

}  // namespace

User create_user(soci::session& session, const std::string& slug, const std::string& name,
                 bool staff, int64_t now) {
    const int staff_flag = staff ? 1 : 0;
    long long user_id = 0;
    session << "INSERT INTO users (slug, name, staff, created_at) VALUES (:slug, :name, :staff, "
               ":now) ON CONFLICT (slug) DO NOTHING RETURNING id",
        soci::use(slug), soci::use(name), soci::use(staff_flag), soci::use(now),
        soci::into(user_id);
    if (!session.got_data()) {
        throw slug_taken(slug);
    }
    auto account_id = insert_account(session, slug, name, "user", user_id, now);
    if (!account_id) {
        throw slug_taken(slug);
    }
    return User{user_id, slug, name, *account_id, staff};
}

Account create_team(soci::session& session, const std::string& slug, const std::string& name,
                    const User& owner, int64_t now) {
    auto account_id = insert_account(session, slug, name, "team", std::nullopt, now);
    if (!account_id) {
        throw slug_taken(slug);
    }
    Account team{*account_id, slug, name, AccountKind::team, 0};
    set_member(session, team, owner, Role::owner, now);
    return team;
}

void set_member(soci::session& session, const Account& team, const User& user, Role role,
                int64_t now) {
    const std::string role_text(role_name(role));
    session << "INSERT INTO team_members (account_id, user_id, role, created_at) "
               "VALUES (:account, :user, :role, :now) "
               "ON CONFLICT (account_id, user_id) DO UPDATE SET role = excluded.role",
        soci::use(team.id), soci::use(user.id), soci::use(role_text), soci::use(now);
    if (count_owners(session, team.id) == 0) {
        throw AdminError("Account \"" + team.slug + "\" must keep at least one owner");
    }
}

void set_project_level(soci::session& session, int64_t project_id, int64_t user_id,
                       const std::optional<std::string>& level, int64_t now) {
    if (!level) {
        session << "DELETE FROM project_users WHERE project_id = :p AND user_id = :u",
            soci::use(project_id), soci::use(user_id);
        return;
    }
    session << "INSERT INTO project_users (project_id, user_id, level, created_at) "
               "VALUES (:p, :u, :level, :now) "
               "ON CONFLICT (project_id, user_id) DO UPDATE SET level = excluded.level",
        soci::use(project_id), soci::use(user_id), soci::use(*level), soci::use(now);
}

std::optional<std::pair<Project, IssuedToken>> create_project(
    soci::session& session, const Account& account, const std::string& name,
    const std::string& base_branch, const std::string& token, int64_t now) {
    const std::string key = name_key(name);
    long long project_id = 0;
    session << "INSERT INTO projects (account_id, name, name_key, default_base_branch, "
               "created_at) VALUES (:account, :name, :key, :branch, :now) "
               "ON CONFLICT (account_id, name_key) DO NOTHING RETURNING id",
        soci::use(account.id), soci::use(name), soci::use(key), soci::use(base_branch),
        soci::use(now), soci::into(project_id);
    if (!session.got_data()) {
        return std::nullopt;
    }
    token_store::NewToken row;
    row.kind = "project";
    row.token = token;
    row.project_id = project_id;
    const int64_t token_id = token_store::insert(session, row, now);
    auto project = identity_rows::project_by_id(session, project_id);
    return std::pair{*project, IssuedToken{token_id, token}};
}

std::optional<Project> move_project(soci::session& session, int64_t project_id,
                                    const Account& target, const std::string& name) {
    const std::string key = name_key(name);
    long long taken = 0;
    session << "SELECT COUNT(*) FROM projects WHERE account_id = :account AND name_key = :key "
               "AND id <> :id",
        soci::use(target.id), soci::use(key), soci::use(project_id), soci::into(taken);
    if (taken > 0) {
        return std::nullopt;
    }
    session << "UPDATE projects SET account_id = :account, name = :name, name_key = :key "
               "WHERE id = :id",
        soci::use(target.id), soci::use(name), soci::use(key), soci::use(project_id);
    // A grant on the project means something only to a person of the account that owns it.
    session << "DELETE FROM project_users WHERE project_id = :id AND user_id NOT IN ("
               "SELECT user_id FROM team_members WHERE account_id = :account) "
               "AND user_id NOT IN (SELECT user_id FROM accounts WHERE id = :same_account "
               "AND user_id IS NOT NULL)",
        soci::use(project_id), soci::use(target.id), soci::use(target.id);
    return identity_rows::project_by_id(session, project_id);
}

void delete_project(soci::session& session, int64_t project_id) {
    session << "DELETE FROM projects WHERE id = :id", soci::use(project_id);
}

IssuedToken create_personal_token(soci::session& session, const User& user,
                                  const std::vector<Account>& scope,
                                  std::optional<int64_t> expires_at, const std::string& token,
                                  int64_t now) {
    token_store::NewToken row;
    row.kind = "personal";
    row.token = token;
    row.user_id = user.id;
    row.expires_at = expires_at;
    const int64_t token_id = token_store::insert(session, row, now);
    for (const auto& account : scope) {
        token_store::add_scope(session, token_id, account.id);
    }
    return IssuedToken{token_id, token};
}

}  // namespace loupe::identity_writes
