#include "identity/identity_rows.hpp"

#include "loupe/db/row_reader.hpp"

namespace loupe::identity_rows {
namespace {

constexpr const char* account_columns = "a.id, a.slug, a.name, a.kind, a.user_id";

Account read_account(const soci::row& row) {
    const RowReader read(row);
    Account account;
    account.id = read.int64("id");
    account.slug = read.text("slug");
    account.name = read.text("name");
    account.kind = read.text("kind") == "user" ? AccountKind::user : AccountKind::team;
    account.user_id = read.optional_int("user_id").value_or(0);
    return account;
}

constexpr const char* user_columns = "u.id, u.slug, u.name, u.staff, a.id AS account_id";
constexpr const char* user_from = " FROM users u JOIN accounts a ON a.user_id = u.id ";

User read_user(const soci::row& row) {
    const RowReader read(row);
    User user;
    user.id = read.int64("id");
    user.slug = read.text("slug");
    user.name = read.text("name");
    user.staff = read.flag("staff");
    user.account_id = read.int64("account_id");
    return user;
}

constexpr const char* project_select =
    "SELECT p.id, p.account_id, a.slug AS account_slug, p.name, p.default_base_branch, "
    "p.is_private, "
    "p.default_user_level, p.created_at "
    "FROM projects p JOIN accounts a ON a.id = p.account_id ";
constexpr const char* most_recently_active_first =
    " ORDER BY CASE WHEN p.last_activity_at > p.created_at THEN p.last_activity_at "
    "ELSE p.created_at END DESC, p.id DESC";

Project read_project(const soci::row& row) {
    const RowReader read(row);
    Project project;
    project.id = read.int64("id");
    project.account_id = read.int64("account_id");
    project.account_slug = read.text("account_slug");
    project.name = read.text("name");
    project.default_base_branch = read.text("default_base_branch");
    project.is_private = read.flag("is_private");
    project.default_user_level = read.optional_text("default_user_level");
    project.created_at = read.int64("created_at");
    return project;
}

template <class Value, class Reader>
std::vector<Value> read_all(soci::rowset<soci::row>& rows, Reader reader) {
    std::vector<Value> values;
    for (const auto& row : rows) {
        values.push_back(reader(row));
    }
    return values;
}

}  // namespace

std::optional<Account> account_by_slug(soci::session& session, const std::string& slug) {
    soci::row row;
    session << std::string("SELECT ") + account_columns + " FROM accounts a WHERE a.slug = :slug",
        soci::use(slug), soci::into(row);
    return session.got_data() ? std::optional(read_account(row)) : std::nullopt;
}

std::optional<Account> account_by_id(soci::session& session, int64_t id) {
    soci::row row;
    session << std::string("SELECT ") + account_columns + " FROM accounts a WHERE a.id = :id",
        soci::use(id), soci::into(row);
    return session.got_data() ? std::optional(read_account(row)) : std::nullopt;
}

std::optional<User> user_by_slug(soci::session& session, const std::string& slug) {
    soci::row row;
    session << std::string("SELECT ") + user_columns + user_from + "WHERE u.slug = :slug",
        soci::use(slug), soci::into(row);
    return session.got_data() ? std::optional(read_user(row)) : std::nullopt;
}

std::optional<User> user_by_id(soci::session& session, int64_t id) {
    soci::row row;
    session << std::string("SELECT ") + user_columns + user_from + "WHERE u.id = :id",
        soci::use(id), soci::into(row);
    return session.got_data() ? std::optional(read_user(row)) : std::nullopt;
}

std::optional<Project> project_by_id(soci::session& session, int64_t id) {
    soci::row row;
    session << std::string(project_select) + "WHERE p.id = :id", soci::use(id), soci::into(row);
    return session.got_data() ? std::optional(read_project(row)) : std::nullopt;
}

std::optional<Project> project_by_name(soci::session& session, const std::string& account_slug,
                                       const std::string& name) {
    soci::row row;
    session << std::string(project_select) + "WHERE a.slug = :slug AND p.name = :name",
        soci::use(account_slug), soci::use(name), soci::into(row);
    return session.got_data() ? std::optional(read_project(row)) : std::nullopt;
}

std::vector<Project> projects_of_account(soci::session& session, int64_t account_id) {
    soci::rowset<soci::row> rows =
        (session.prepare << std::string(project_select) + "WHERE p.account_id = :account" +
                                most_recently_active_first,
         soci::use(account_id));
    return read_all<Project>(rows, read_project);
}

std::vector<Project> contributor_projects(soci::session& session, int64_t account_id,
                                          int64_t user_id) {
    soci::rowset<soci::row> rows =
        (session.prepare << std::string(project_select) +
                                "WHERE p.account_id = :account AND (p.default_user_level IS NOT "
                                "NULL OR EXISTS (SELECT 1 FROM project_users pu WHERE "
                                "pu.project_id = p.id AND pu.user_id = :user))" +
                                most_recently_active_first,
         soci::use(account_id), soci::use(user_id));
    return read_all<Project>(rows, read_project);
}

std::vector<Project> all_projects(soci::session& session) {
    soci::rowset<soci::row> rows =
        (session.prepare << std::string(project_select) + "ORDER BY a.slug, p.name_key, p.id");
    return read_all<Project>(rows, read_project);
}

std::vector<User> all_users(soci::session& session) {
    soci::rowset<soci::row> rows =
        (session.prepare << std::string("SELECT ") + user_columns + user_from + "ORDER BY u.slug");
    return read_all<User>(rows, read_user);
}

std::optional<Role> team_role(soci::session& session, int64_t account_id, int64_t user_id) {
    std::string role;
    session << "SELECT role FROM team_members WHERE account_id = :account AND user_id = :user",
        soci::use(account_id), soci::use(user_id), soci::into(role);
    return session.got_data() ? parse_role(role) : std::nullopt;
}

std::optional<std::string> project_level(soci::session& session, int64_t project_id,
                                         int64_t user_id) {
    std::string level;
    session << "SELECT level FROM project_users WHERE project_id = :project AND user_id = :user",
        soci::use(project_id), soci::use(user_id), soci::into(level);
    return session.got_data() ? std::optional(level) : std::nullopt;
}

}  // namespace loupe::identity_rows
