#pragma once
// Users, accounts, memberships, projects and tokens: the identity every plugin shares.
// OWNERSHIP: owned by the core, valid for the process lifetime. THREADS: thread-safe.
// Reads open their own session; methods taking a soci::session& join the caller's transaction.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "loupe/auth/principal.hpp"
#include "loupe/export.hpp"
#include "loupe/json.hpp"

namespace soci {
class session;
}

namespace loupe {

enum class AccountKind { user, team };
enum class Role { owner, member, contributor };

/// A team role as the API and the database write it: "owner", "member", "contributor".
constexpr std::string_view role_name(Role role) {
    switch (role) {
        case Role::owner:
            return "owner";
        case Role::member:
            return "member";
        case Role::contributor:
            return "contributor";
    }
    return "contributor";
}

/// The role a name written by role_name() stands for; nullopt for any other text.
constexpr std::optional<Role> parse_role(std::string_view name) {
    for (const Role role : {Role::owner, Role::member, Role::contributor}) {
        if (role_name(role) == name) {
            return role;
        }
    }
    return std::nullopt;
}

struct Account {
    int64_t id = 0;
    std::string slug;
    std::string name;
    AccountKind kind = AccountKind::team;
    int64_t user_id = 0;  ///< for personal accounts: their user
};

struct User {
    int64_t id = 0;
    std::string slug;  ///< the personal account's slug
    std::string name;
    int64_t account_id = 0;  ///< the personal account
    bool staff = false;
};

/// A project's identity. Settings of plugins (auto-approve glob, deployments, git links, ...)
/// live in the plugins' own tables (see project_fields.hpp).
struct Project {
    int64_t id = 0;
    int64_t account_id = 0;
    std::string account_slug;
    std::string name;
    std::string default_base_branch = "main";
    bool is_private = true;
    std::optional<std::string> default_user_level;  ///< admin | reviewer | viewer
    int64_t created_at = 0;
};

/// Argos project permissions; Identity::permissions derives them from role and project level.
struct Permissions {
    bool admin = false, review = false, review_dismiss = false, view_settings = false, view = false;
};

/// What a short-lived token issued for a CI run vouches for (Principal's bound_commit,
/// bound_branch and untrusted_head): nothing by default, or a commit.
struct RunBinding {
    RunBinding(std::optional<std::string> bound_commit = std::nullopt)  // NOLINT: implicit
        : commit(std::move(bound_commit)) {}
    std::optional<std::string> commit;
    std::optional<std::string> branch;
    bool untrusted_head = false;
};

struct IssuedToken {
    int64_t id = 0;
    std::string token;  ///< the clear token: shown once, stored only as a SHA-256 hash
};

/// A person's own personal access token as they see it (never the secret).
struct PersonalTokenInfo {
    int64_t id = 0;
    std::string name;    ///< "" for a token made before tokens had names
    std::string prefix;  ///< the first characters, to recognise it
    std::vector<AccountRef> scope;
    int64_t created_at = 0;
    std::optional<int64_t> expires_at;
    std::optional<int64_t> last_used_at;
};

/// A project token as the project's admins see it (never the secret).
struct ProjectTokenInfo {
    int64_t id = 0;
    std::string prefix;  ///< the first characters, to recognise it
    int64_t created_at = 0;
    std::optional<int64_t> last_used_at;
};

/// Why `name` (already trimmed) is not a valid project name (1..100 of [a-zA-Z0-9_.-]), zod-style
/// message ("Too big: expected string to have <=100 characters"); nullopt when valid.
LOUPE_API std::optional<std::string> project_name_problem(const std::string& name);
/// True for the names Argos reserves for its own pages ("new", "settings", exact case).
LOUPE_API bool is_reserved_project_name(const std::string& name);

class LOUPE_API Identity {
public:
    virtual ~Identity();

    virtual std::optional<Account> find_account(const std::string& slug) = 0;
    virtual std::optional<User> find_user(const std::string& slug) = 0;
    virtual std::optional<User> find_user(int64_t id) = 0;
    virtual std::optional<Project> find_project(int64_t id) = 0;
    virtual std::optional<Project> find_project(const std::string& account_slug,
                                                const std::string& name) = 0;

    /// The project {owner}/{name} as `principal` may see it. Project token for
    /// another or a missing project → 401 "Unauthorized"; PAT not scoped to owner → 401;
    /// PAT in scope, missing project → 404 "Not found".
    virtual Project authorize_project(const Principal& principal, const std::string& owner,
                                      const std::string& name) = 0;
    /// The account with this slug if the PAT is scoped to it, else 401 ("You do not have access").
    virtual Account authorize_account(const Principal& principal, const std::string& slug) = 0;

    virtual Permissions permissions(int64_t user_id, const Project& project) = 0;
    /// Staff, the owner of a personal account, or a team owner.
    virtual bool can_administer(int64_t user_id, const Account& account) = 0;
    /// Team members can see all projects; contributors only those granted to them.
    virtual std::vector<Project> visible_projects(int64_t user_id, const Account& account) = 0;

    /// `{id, slug, name}` of a user: its personal account's id and slug, and its display name.
    virtual Json user_ref(int64_t user_id) = 0;
    /// The Project resource: identity fields plus every enabled plugin's settings fields.
    virtual Json project_json(const Project& project) = 0;
    /// The Project resource as `session` (a transaction) sees it, re-reading the project row:
    /// the state before and after a change inside the change's transaction. Null when the
    /// project is gone.
    virtual Json project_json_in(soci::session& session, int64_t project_id) = 0;
    /// The resources of several projects, each plugin reading its settings once for all.
    virtual std::vector<Json> projects_json(const std::vector<Project>& projects) = 0;
    /// True when a plugin lets `field` of the Project resource be changed (project_fields.hpp).
    virtual bool is_changeable_project_field(const std::string& field) = 0;
    /// Changes `field` of `project` to `value` through the plugin that owns it, in the caller's
    /// transaction: HttpError 400 when the plugin refuses the value, std::invalid_argument for a
    /// field nobody lets change.
    virtual void change_project_field(soci::session& session, const Project& project,
                                      const std::string& field, const Json& value) = 0;

    /// The user principal a browser session acts as. With `personal_token_id`, the scope that
    /// personal access token still holds (nullopt once it is revoked or expired); without, every
    /// account the user belongs to (their personal account and their teams). Nullopt for an
    /// unknown user or an empty scope.
    virtual std::optional<Principal> user_principal(int64_t user_id,
                                                    std::optional<int64_t> personal_token_id) = 0;

    // People who sign in through an identity provider. Each joins the caller's transaction.

    /// The user whose address is `email` (compared lower-cased); nullopt when none.
    virtual std::optional<User> find_user_by_email(soci::session& session,
                                                   const std::string& email) = 0;
    /// The user's address, lower-cased (nullopt when none is known).
    virtual std::optional<std::string> user_email(soci::session& session, int64_t user_id) = 0;
    /// Records `email` (lower-cased) as the user's address; HttpError 409 when another user
    /// holds it.
    virtual void set_user_email(soci::session& session, int64_t user_id,
                                const std::string& email) = 0;
    /// A new user and personal account named `name`. The slug is `slug_hint` made valid
    /// (lower-case letters, digits and dashes, at most 48) and free: "-2", "-3"... is appended
    /// when it is taken or reserved.
    virtual User create_user(soci::session& session, const std::string& slug_hint,
                             const std::string& name, const std::optional<std::string>& email) = 0;
    /// The user's role in team `account`; nullopt when not a member.
    virtual std::optional<Role> member_role(soci::session& session, const Account& team,
                                            int64_t user_id) = 0;
    /// Gives the user `role` in `team`, or removes them from it (nullopt). Returns false and
    /// changes nothing when that would leave the team without an owner.
    virtual bool set_member_role(soci::session& session, const Account& team, int64_t user_id,
                                 std::optional<Role> role) = 0;
    /// Marks activity (a build) for "most recently active first" ordering.
    virtual void touch_project(soci::session& session, int64_t project_id, int64_t at_ms) = 0;

    /// Creates a project in `account` with a new project token. The name's format is the caller's
    /// to check; a name already used in the account (case-insensitive) throws HttpError 409.
    virtual std::pair<Project, IssuedToken> create_project(soci::session& session,
                                                           const Account& account,
                                                           const std::string& name,
                                                           const std::string& base_branch) = 0;
    /// Moves `project` to `target` under `name` (already checked by the caller), in the caller's
    /// transaction: its builds, tokens and settings go with it; the project-level grants of
    /// people who are not in `target` are dropped. HttpError 409 when `target` already has a
    /// project of that name (case-insensitive). Returns the project as it now is.
    virtual Project transfer_project(soci::session& session, const Project& project,
                                     const Account& target, const std::string& name) = 0;
    /// Deletes `project` in the caller's transaction. Every table about a project references it
    /// with ON DELETE CASCADE, so its builds, screenshots, diffs, reviews, comments, tests,
    /// deployments, tokens, grants and settings go with it; the stored files only it used are
    /// left to the blob sweep (the retention job, `loupe admin prune`).
    virtual void delete_project(soci::session& session, const Project& project) = 0;
    /// A short-lived project token (`argos_tmp_...`), optionally bound to a CI run's commit and
    /// branch.
    /// The user's live personal access tokens (not revoked, not expired), newest first.
    virtual std::vector<PersonalTokenInfo> personal_tokens(soci::session& session,
                                                           int64_t user_id) = 0;
    /// A new personal access token of the user, scoped to `scope` (accounts the caller checked
    /// the user belongs to).
    virtual IssuedToken create_personal_token(soci::session& session, int64_t user_id,
                                              const std::string& name,
                                              const std::vector<AccountRef>& scope,
                                              std::optional<int64_t> expires_at) = 0;
    /// Revokes the user's own personal access token `token_id`; false when they hold no such
    /// live token.
    virtual bool revoke_personal_token(soci::session& session, int64_t user_id,
                                       int64_t token_id) = 0;
    /// The project's live project tokens (not revoked), newest first.
    virtual std::vector<ProjectTokenInfo> project_tokens(soci::session& session,
                                                         int64_t project_id) = 0;
    /// A new project token: the old ones keep working until revoked (rotation without
    /// downtime).
    virtual IssuedToken create_project_token(soci::session& session, int64_t project_id) = 0;
    /// Revokes the project's token `token_id`; false when the project holds no such live token.
    virtual bool revoke_project_token(soci::session& session, int64_t project_id,
                                      int64_t token_id) = 0;
    virtual IssuedToken issue_short_lived_token(int64_t project_id, int64_t ttl_ms,
                                                RunBinding binding) = 0;
    /// Like issue_short_lived_token, but exactly 40 characters long (`argos_tmp_` + 30): the
    /// length the Argos CLI accepts in ARGOS_TOKEN, for exchanges a CI job performs itself.
    virtual IssuedToken issue_short_lived_cli_token(int64_t project_id, int64_t ttl_ms,
                                                    RunBinding binding) = 0;
};

}  // namespace loupe
