#pragma once
// The Identity implementation plus the administrative operations behind `loupe admin`.
// Every write runs in one transaction; failures throw AdminError with a user-facing message.

#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "loupe/auth/identity.hpp"
#include "loupe/auth/project_fields.hpp"
#include "loupe/db/database.hpp"
#include "loupe/export.hpp"

namespace loupe {

class LOUPE_API AdminError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
    ~AdminError() override;  // key function: one typeinfo, in libloupe-core
};

struct TokenListing {
    int64_t id = 0;
    std::string kind;  ///< project | personal | short_lived
    std::string prefix;
    std::string owner;  ///< user slug or account/project
    std::optional<int64_t> expires_at;
    bool revoked = false;
};

class LOUPE_API IdentityStore final : public Identity {
public:
    explicit IdentityStore(Database& database);

    // Identity
    std::optional<Account> find_account(const std::string& slug) override;
    std::optional<User> find_user(const std::string& slug) override;
    std::optional<User> find_user(int64_t id) override;
    std::optional<Project> find_project(int64_t id) override;
    std::optional<Project> find_project(const std::string& account_slug,
                                        const std::string& name) override;
    Project authorize_project(const Principal& principal, const std::string& owner,
                              const std::string& name) override;
    Account authorize_account(const Principal& principal, const std::string& slug) override;
    Permissions permissions(int64_t user_id, const Project& project) override;
    bool can_administer(int64_t user_id, const Account& account) override;
    std::vector<Project> visible_projects(int64_t user_id, const Account& account) override;
    Json user_ref(int64_t user_id) override;
    std::optional<Principal> user_principal(int64_t user_id,
                                            std::optional<int64_t> personal_token_id) override;
    Json project_json(const Project& project) override;
    Json project_json_in(soci::session& session, int64_t project_id) override;
    std::vector<Json> projects_json(const std::vector<Project>& projects) override;
    bool is_changeable_project_field(const std::string& field) override;
    void change_project_field(soci::session& session, const Project& project,
                              const std::string& field, const Json& value) override;
    std::optional<User> find_user_by_email(soci::session& session,
                                           const std::string& email) override;
    std::optional<std::string> user_email(soci::session& session, int64_t user_id) override;
    void set_user_email(soci::session& session, int64_t user_id, const std::string& email) override;
    User create_user(soci::session& session, const std::string& slug_hint, const std::string& name,
                     const std::optional<std::string>& email) override;
    std::optional<Role> member_role(soci::session& session, const Account& team,
                                    int64_t user_id) override;
    bool set_member_role(soci::session& session, const Account& team, int64_t user_id,
                         std::optional<Role> role) override;
    /// The plugins' writers and setters of settings fields (set once, after the plugins
    /// installed).
    void set_project_field_writers(std::vector<ProjectFieldsWriter> writers);
    void set_project_field_setters(std::map<std::string, ProjectFieldSetter> setters);
    void touch_project(soci::session& session, int64_t project_id, int64_t at_ms) override;
    std::pair<Project, IssuedToken> create_project(soci::session& session, const Account& account,
                                                   const std::string& name,
                                                   const std::string& base_branch) override;
    Project transfer_project(soci::session& session, const Project& project, const Account& target,
                             const std::string& name) override;
    void delete_project(soci::session& session, const Project& project) override;
    std::vector<PersonalTokenInfo> personal_tokens(soci::session& session,
                                                   int64_t user_id) override;
    IssuedToken create_personal_token(soci::session& session, int64_t user_id,
                                      const std::string& name, const std::vector<AccountRef>& scope,
                                      std::optional<int64_t> expires_at) override;
    bool revoke_personal_token(soci::session& session, int64_t user_id, int64_t token_id) override;
    std::vector<ProjectTokenInfo> project_tokens(soci::session& session,
                                                 int64_t project_id) override;
    IssuedToken create_project_token(soci::session& session, int64_t project_id) override;
    bool revoke_project_token(soci::session& session, int64_t project_id,
                              int64_t token_id) override;
    IssuedToken issue_short_lived_token(int64_t project_id, int64_t ttl_ms,
                                        RunBinding binding) override;
    IssuedToken issue_short_lived_cli_token(int64_t project_id, int64_t ttl_ms,
                                            RunBinding binding) override;

    /// Slugs no user or account may take: the first path segments the server answers itself
    /// (own_first_segments() of the route table; set once, after the plugins installed).
    void set_reserved_slugs(std::set<std::string> slugs);

    // Administration (`loupe admin ...`)
    bool has_any_user();
    User create_user(const std::string& slug, const std::string& name, bool staff = false,
                     const std::optional<std::string>& email = std::nullopt);
    /// Records the user's email address (validated, lower-cased); returns it. AdminError when
    /// it is malformed or another user holds it.
    std::string set_user_email(const std::string& user_slug, const std::string& email);
    Account create_team(const std::string& slug, const std::string& name,
                        const std::string& owner_slug);
    void add_member(const std::string& account_slug, const std::string& user_slug, Role role);
    /// Sets a user's level on a project of a team ("admin", "reviewer", "viewer"), or removes it
    /// (nullopt). `project_ref` is "<account>/<project>". Returns the project.
    Project grant_project_level(const std::string& project_ref, const std::string& user_slug,
                                const std::optional<std::string>& level);
    /// Validates the project name (project_name_problem, not reserved, unique in the account
    /// ignoring case); returns the token.
    std::pair<Project, IssuedToken> create_project(const std::string& account_slug,
                                                   const std::string& name,
                                                   const std::string& base_branch);
    IssuedToken create_personal_token(const std::string& user_slug,
                                      const std::vector<std::string>& account_slugs,
                                      std::optional<int64_t> expires_at_ms);
    /// Revokes every token whose visible prefix starts with `prefix` (at least 8 characters);
    /// returns how many.
    int revoke_tokens(const std::string& prefix);
    std::vector<User> list_users();
    std::vector<Project> list_projects();
    std::vector<TokenListing> list_tokens();

private:
    friend struct BootstrapAccess;  // bootstrap.cpp: all first-start writes in one transaction

    IssuedToken store_short_lived_token(const std::string& token, int64_t project_id,
                                        int64_t ttl_ms, RunBinding binding);

    void check_slug(const std::string& slug) const;

    Database& database_;
    std::vector<ProjectFieldsWriter> project_field_writers_;
    std::map<std::string, ProjectFieldSetter> project_field_setters_;
    std::set<std::string> reserved_slugs_;
};

}  // namespace loupe
