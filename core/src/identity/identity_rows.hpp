#pragma once
// Reading identity rows on a given session, so that reads inside a write transaction see its
// own uncommitted rows. Every query binds its values.

#include <soci/soci.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "loupe/auth/identity.hpp"

namespace loupe::identity_rows {

std::optional<Account> account_by_slug(soci::session& session, const std::string& slug);
std::optional<Account> account_by_id(soci::session& session, int64_t id);
std::optional<User> user_by_slug(soci::session& session, const std::string& slug);
std::optional<User> user_by_id(soci::session& session, int64_t id);
std::optional<Project> project_by_id(soci::session& session, int64_t id);
std::optional<Project> project_by_name(soci::session& session, const std::string& account_slug,
                                       const std::string& name);
/// Lists are ordered most recently active first: max(created_at, last_activity_at) descending.
std::vector<Project> projects_of_account(soci::session& session, int64_t account_id);
/// The projects of `account_id` a contributor sees: granted to them or with a default level.
std::vector<Project> contributor_projects(soci::session& session, int64_t account_id,
                                          int64_t user_id);
/// Every project, by account slug then name.
std::vector<Project> all_projects(soci::session& session);
std::vector<User> all_users(soci::session& session);

/// The user's role in a team account, nullopt when not a member.
std::optional<Role> team_role(soci::session& session, int64_t account_id, int64_t user_id);
/// The explicit `project_users` level of the user on the project.
std::optional<std::string> project_level(soci::session& session, int64_t project_id,
                                         int64_t user_id);

}  // namespace loupe::identity_rows
