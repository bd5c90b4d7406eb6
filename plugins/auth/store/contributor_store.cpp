#include "store/contributor_store.hpp"

#include <soci/soci.h>

#include "loupe/db/row_reader.hpp"
#include "loupe/http/http_error.hpp"
#include "store/team_audit.hpp"

namespace loupe::auth {
namespace {

constexpr const char* contributor_select =
    "SELECT pu.id, pu.user_id, a.id AS user_account_id, u.slug, u.name, pu.level "
    "FROM project_users pu JOIN users u ON u.id = pu.user_id "
    "JOIN accounts a ON a.user_id = u.id ";

ProjectContributor read_contributor(const soci::row& row) {
    const RowReader read(row);
    ProjectContributor contributor;
    contributor.id = read.int64("id");
    contributor.user_id = read.int64("user_id");
    contributor.user_account_id = read.int64("user_account_id");
    contributor.slug = read.text("slug");
    contributor.name = read.text("name");
    contributor.level = read.text("level");
    return contributor;
}

int64_t user_of_account_in(soci::session& session, int64_t user_account_id) {
    long long user_id = 0;
    soci::indicator present = soci::i_null;
    session << "SELECT user_id FROM accounts WHERE id = :id", soci::use(user_account_id),
        soci::into(user_id, present);
    if (!session.got_data() || present != soci::i_ok) {
        throw HttpError::not_found("User not found.");
    }
    return user_id;
}

ProjectContributor grant_of(soci::session& session, int64_t project_id, int64_t user_id) {
    soci::rowset<soci::row> rows =
        (session.prepare << std::string(contributor_select) +
                                "WHERE pu.project_id = :project AND pu.user_id = :user",
         soci::use(project_id), soci::use(user_id));
    for (const auto& row : rows) {
        return read_contributor(row);
    }
    throw HttpError::not_found("This user is not a contributor on the project.");
}

std::optional<std::string> level_held(soci::session& session, int64_t project_id, int64_t user_id) {
    std::string level;
    session << "SELECT level FROM project_users WHERE project_id = :project AND user_id = :user",
        soci::use(project_id), soci::use(user_id), soci::into(level);
    return session.got_data() ? std::optional<std::string>(level) : std::nullopt;
}

/// The account's trail: "web: reviewer" before and after (none when there was or is no level).
void record_level_change(soci::session& session, const Project& project, int64_t actor_user_id,
                         int64_t user_id, const std::optional<std::string>& before,
                         const std::optional<std::string>& after) {
    const auto on_project = [&](const std::optional<std::string>& level) {
        return level ? std::optional<std::string>(project.name + ": " + *level) : std::nullopt;
    };
    team_audit::record(
        session,
        {.account_id = project.account_id,
         .actor_user_id = actor_user_id != 0 ? std::optional(actor_user_id) : std::nullopt,
         .action = "project.contributor",
         .subject_user_id = user_id,
         .before = on_project(before),
         .after = on_project(after)},
        now_ms());
}

}  // namespace

ContributorPage ContributorStore::list(const Project& project, int64_t current_user_id,
                                       int64_t offset, int64_t limit) {
    auto session = database_.session();
    ContributorPage page;
    long long total = 0;
    *session << "SELECT COUNT(*) FROM project_users WHERE project_id = :project",
        soci::use(project.id), soci::into(total);
    page.total = total;
    soci::rowset<soci::row> rows =
        (session->prepare << std::string(contributor_select) +
                                 "WHERE pu.project_id = :project "
                                 "ORDER BY CASE WHEN pu.user_id = :me THEN 0 ELSE 1 END, pu.id "
                                 "LIMIT :limit OFFSET :offset",
         soci::use(project.id), soci::use(current_user_id), soci::use(limit), soci::use(offset));
    for (const auto& row : rows) {
        page.contributors.push_back(read_contributor(row));
    }
    return page;
}

int64_t ContributorStore::user_of_account(int64_t user_account_id) {
    auto session = database_.session();
    return user_of_account_in(*session, user_account_id);
}

ProjectContributor ContributorStore::set(const Project& project, int64_t user_account_id,
                                         const std::string& level, int64_t actor_user_id) {
    return database_.transaction([&](soci::session& session) {
        const int64_t user_id = user_of_account_in(session, user_account_id);
        // Only people of the project's account get a level on it: its team's members, or the
        // owner of a personal account.
        long long belongs = 0;
        session << "SELECT COUNT(*) FROM accounts a WHERE a.id = :account AND (a.user_id = :user "
                   "OR EXISTS (SELECT 1 FROM team_members m WHERE m.account_id = a.id AND "
                   "m.user_id = :member))",
            soci::use(project.account_id), soci::use(user_id), soci::use(user_id),
            soci::into(belongs);
        if (belongs == 0) {
            throw HttpError::bad_request("This user is not a member of the project's account.");
        }
        const auto held = level_held(session, project.id, user_id);
        const int64_t now = now_ms();
        session << "INSERT INTO project_users (project_id, user_id, level, created_at) "
                   "VALUES (:project, :user, :level, :now) "
                   "ON CONFLICT (project_id, user_id) DO UPDATE SET level = excluded.level",
            soci::use(project.id), soci::use(user_id), soci::use(level), soci::use(now);
        if (held != level) {
            record_level_change(session, project, actor_user_id, user_id, held, level);
        }
        return grant_of(session, project.id, user_id);
    });
}

void ContributorStore::remove(const Project& project, int64_t user_account_id,
                              int64_t actor_user_id) {
    database_.transaction([&](soci::session& session) {
        const int64_t user_id = user_of_account_in(session, user_account_id);
        const ProjectContributor grant = grant_of(session, project.id, user_id);
        session << "DELETE FROM project_users WHERE id = :id", soci::use(grant.id);
        record_level_change(session, project, actor_user_id, user_id, grant.level, std::nullopt);
    });
}

}  // namespace loupe::auth
