#pragma once
// Identity writes on a session the caller holds in a transaction, so that several of them
// (the first start's user, team, project and tokens) commit together. Inputs are validated by
// the caller; conflicts with existing rows are reported here (AdminError or nullopt).

#include <soci/soci.h>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "loupe/auth/identity.hpp"

namespace loupe::identity_writes {

/// A user and its personal account (same slug). AdminError if the slug is taken.
User create_user(soci::session& session, const std::string& slug, const std::string& name,
                 bool staff, int64_t now);
/// A team account with `owner` as its owner. AdminError if the slug is taken.
Account create_team(soci::session& session, const std::string& slug, const std::string& name,
                    const User& owner, int64_t now);
/// Adds `user` to `team` or changes their role. AdminError when it would leave no owner.
void set_member(soci::session& session, const Account& team, const User& user, Role role,
                int64_t now);
/// Sets (or, with nullopt, removes) a user's level on a project.
void set_project_level(soci::session& session, int64_t project_id, int64_t user_id,
                       const std::optional<std::string>& level, int64_t now);
/// A project with Argos's defaults for a new project (core_migrations.cpp's column defaults)
/// and `token` as its project token; nullopt when
/// the account already has a project of that name (case-insensitive).
std::optional<std::pair<Project, IssuedToken>> create_project(
    soci::session& session, const Account& account, const std::string& name,
    const std::string& base_branch, const std::string& token, int64_t now);
/// Moves the project to `target` as `name`, dropping the project-level grants of people outside
/// `target`; nullopt (nothing changed) when `target` has a project of that name already.
std::optional<Project> move_project(soci::session& session, int64_t project_id,
                                    const Account& target, const std::string& name);
/// Deletes the project row; the foreign keys of every table about it cascade.
void delete_project(soci::session& session, int64_t project_id);
/// A personal access token of `user` scoped to `scope` (already checked by the caller).
IssuedToken create_personal_token(soci::session& session, const User& user,
                                  const std::vector<Account>& scope,
                                  std::optional<int64_t> expires_at, const std::string& token,
                                  int64_t now);

}  // namespace loupe::identity_writes
