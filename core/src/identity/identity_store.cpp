// The Identity interface: lookups, access checks of routed projects and accounts against the
// token, and a user's permissions on a project.
#include "identity/identity_store.hpp"

#include "auth/auth_messages.hpp"
#include "auth/token_format.hpp"
#include "identity/identity_rows.hpp"
#include "identity/identity_writes.hpp"
#include "identity/token_store.hpp"
#include "loupe/http/http_error.hpp"

namespace loupe {
namespace {

constexpr Permissions all_permissions{true, true, true, true, true};

Permissions public_permissions(const Project& project) {
    Permissions permissions;
    permissions.view = !project.is_private;
    return permissions;
}

Permissions level_permissions(const std::string& level) {
    if (level == "admin") {
        return all_permissions;
    }
    Permissions permissions;
    permissions.view = true;
    permissions.view_settings = true;
    permissions.review = level == "reviewer";
    return permissions;
}

}  // namespace

Identity::~Identity() = default;  // key function of the SDK interface
AdminError::~AdminError() = default;

IdentityStore::IdentityStore(Database& database) : database_(database) {}

std::optional<Account> IdentityStore::find_account(const std::string& slug) {
    auto session = database_.session();
    return identity_rows::account_by_slug(*session, slug);
}

std::optional<User> IdentityStore::find_user(const std::string& slug) {
    auto session = database_.session();
    return identity_rows::user_by_slug(*session, slug);
}

std::optional<User> IdentityStore::find_user(int64_t id) {
    auto session = database_.session();
    return identity_rows::user_by_id(*session, id);
}

std::optional<Project> IdentityStore::find_project(int64_t id) {
    auto session = database_.session();
    return identity_rows::project_by_id(*session, id);
}

std::optional<Project> IdentityStore::find_project(const std::string& account_slug,
                                                   const std::string& name) {
    auto session = database_.session();
    return identity_rows::project_by_name(*session, account_slug, name);
}

Project IdentityStore::authorize_project(const Principal& principal, const std::string& owner,
                                         const std::string& name) {
    if (principal.is_project()) {
        // The id comparison comes first, so a missing project is a 401 too.
        auto project = find_project(owner, name);
        if (!project || project->id != principal.project_id) {
            throw HttpError::unauthorized();
        }
        return *project;
    }
    if (!principal.is_user() || principal.scoped_account(owner) == nullptr) {
        throw HttpError::unauthorized();
    }
    auto project = find_project(owner, name);
    if (!project) {
        throw HttpError::not_found();
    }
    return *project;
}

Account IdentityStore::authorize_account(const Principal& principal, const std::string& slug) {
    if (!principal.is_user()) {
        throw HttpError::unauthorized();
    }
    const AccountRef* scoped = principal.scoped_account(slug);
    if (scoped == nullptr) {
        throw HttpError::unauthorized(std::string(auth_messages::no_account_access));
    }
    auto session = database_.session();
    auto account = identity_rows::account_by_id(*session, scoped->id);
    if (!account || account->slug != slug) {
        throw HttpError::unauthorized(std::string(auth_messages::no_account_access));
    }
    return *account;
}

Permissions IdentityStore::permissions(int64_t user_id, const Project& project) {
    auto session = database_.session();
    auto user = identity_rows::user_by_id(*session, user_id);
    if (!user) {
        return public_permissions(project);
    }
    if (user->staff) {
        return all_permissions;
    }
    auto account = identity_rows::account_by_id(*session, project.account_id);
    if (!account) {
        return public_permissions(project);
    }
    if (account->kind == AccountKind::user) {
        return account->user_id == user_id ? all_permissions : public_permissions(project);
    }
    auto role = identity_rows::team_role(*session, account->id, user_id);
    if (!role) {
        return public_permissions(project);
    }
    if (*role != Role::contributor) {
        return all_permissions;
    }
    auto level = identity_rows::project_level(*session, project.id, user_id);
    if (!level) {
        level = project.default_user_level;
    }
    return level ? level_permissions(*level) : public_permissions(project);
}

bool IdentityStore::can_administer(int64_t user_id, const Account& account) {
    auto session = database_.session();
    auto user = identity_rows::user_by_id(*session, user_id);
    if (!user) {
        return false;
    }
    if (user->staff) {
        return true;
    }
    if (account.kind == AccountKind::user) {
        return account.user_id == user_id;
    }
    return identity_rows::team_role(*session, account.id, user_id) == Role::owner;
}

std::vector<Project> IdentityStore::visible_projects(int64_t user_id, const Account& account) {
    auto session = database_.session();
    auto user = identity_rows::user_by_id(*session, user_id);
    if (!user) {
        return {};
    }
    if (user->staff) {
        return identity_rows::projects_of_account(*session, account.id);
    }
    if (account.kind == AccountKind::user) {
        return account.user_id == user_id ? identity_rows::projects_of_account(*session, account.id)
                                          : std::vector<Project>{};
    }
    auto role = identity_rows::team_role(*session, account.id, user_id);
    if (!role) {
        return {};
    }
    if (*role == Role::contributor) {
        return identity_rows::contributor_projects(*session, account.id, user_id);
    }
    return identity_rows::projects_of_account(*session, account.id);
}

Json IdentityStore::user_ref(int64_t user_id) {
    auto user = find_user(user_id);
    if (!user) {
        return nullptr;
    }
    return Json{{"id", std::to_string(user->account_id)},
                {"slug", user->slug},
                {"name", user->name.empty() ? Json(nullptr) : Json(user->name)}};
}

std::optional<Principal> IdentityStore::user_principal(int64_t user_id,
                                                       std::optional<int64_t> personal_token_id) {
    auto session = database_.session();
    if (!identity_rows::user_by_id(*session, user_id)) {
        return std::nullopt;
    }
    Principal principal;
    principal.kind = Principal::Kind::user;
    principal.user_id = user_id;
    if (personal_token_id) {
        if (!token_store::is_live_personal(*session, *personal_token_id, user_id, now_ms())) {
            return std::nullopt;
        }
        principal.scope = token_store::valid_scope(*session, *personal_token_id, user_id);
    } else {
        principal.scope = token_store::user_accounts(*session, user_id);
    }
    if (principal.scope.empty()) {
        return std::nullopt;
    }
    return principal;
}

void IdentityStore::touch_project(soci::session& session, int64_t project_id, int64_t at_ms) {
    session << "UPDATE projects SET last_activity_at = :at WHERE id = :id AND "
               "(last_activity_at IS NULL OR last_activity_at < :later)",
        soci::use(at_ms), soci::use(project_id), soci::use(at_ms);
}

std::pair<Project, IssuedToken> IdentityStore::create_project(soci::session& session,
                                                              const Account& account,
                                                              const std::string& name,
                                                              const std::string& base_branch) {
    auto created = identity_writes::create_project(session, account, name,
                                                   base_branch.empty() ? "main" : base_branch,
                                                   generate_project_token(), now_ms());
    if (!created) {
        throw HttpError::conflict("Name is already used by another project");
    }
    return *created;
}

std::vector<PersonalTokenInfo> IdentityStore::personal_tokens(soci::session& session,
                                                              int64_t user_id) {
    return token_store::live_personal_tokens(session, user_id, now_ms());
}

IssuedToken IdentityStore::create_personal_token(soci::session& session, int64_t user_id,
                                                 const std::string& name,
                                                 const std::vector<AccountRef>& scope,
                                                 std::optional<int64_t> expires_at) {
    token_store::NewToken row;
    row.kind = "personal";
    row.token = generate_personal_token();
    row.user_id = user_id;
    row.expires_at = expires_at;
    row.name = name;
    const int64_t id = token_store::insert(session, row, now_ms());
    for (const auto& account : scope) {
        token_store::add_scope(session, id, account.id);
    }
    return IssuedToken{id, row.token};
}

bool IdentityStore::revoke_personal_token(soci::session& session, int64_t user_id,
                                          int64_t token_id) {
    return token_store::revoke_personal(session, user_id, token_id, now_ms());
}

std::vector<ProjectTokenInfo> IdentityStore::project_tokens(soci::session& session,
                                                            int64_t project_id) {
    return token_store::live_project_tokens(session, project_id);
}

IssuedToken IdentityStore::create_project_token(soci::session& session, int64_t project_id) {
    token_store::NewToken row;
    row.kind = "project";
    row.token = generate_project_token();
    row.project_id = project_id;
    return IssuedToken{token_store::insert(session, row, now_ms()), row.token};
}

bool IdentityStore::revoke_project_token(soci::session& session, int64_t project_id,
                                         int64_t token_id) {
    return token_store::revoke_project(session, project_id, token_id, now_ms());
}

Project IdentityStore::transfer_project(soci::session& session, const Project& project,
                                        const Account& target, const std::string& name) {
    auto moved = identity_writes::move_project(session, project.id, target, name);
    if (!moved) {
        throw HttpError::conflict("Name is already used by another project");
    }
    return *moved;
}

void IdentityStore::delete_project(soci::session& session, const Project& project) {
    identity_writes::delete_project(session, project.id);
}

IssuedToken IdentityStore::issue_short_lived_token(int64_t project_id, int64_t ttl_ms,
                                                   RunBinding binding) {
    return store_short_lived_token(generate_short_lived_token(), project_id, ttl_ms,
                                   std::move(binding));
}

IssuedToken IdentityStore::issue_short_lived_cli_token(int64_t project_id, int64_t ttl_ms,
                                                       RunBinding binding) {
    return store_short_lived_token(generate_short_lived_token(short_lived_cli_random_length),
                                   project_id, ttl_ms, std::move(binding));
}

IssuedToken IdentityStore::store_short_lived_token(const std::string& token, int64_t project_id,
                                                   int64_t ttl_ms, RunBinding binding) {
    return database_.transaction([&](soci::session& session) {
        const int64_t now = now_ms();
        token_store::delete_expired_short_lived(session, project_id, now);
        token_store::NewToken row;
        row.kind = "short_lived";
        row.token = token;
        row.project_id = project_id;
        row.expires_at = now + ttl_ms;
        row.bound_commit = binding.commit;
        row.bound_branch = binding.branch;
        row.untrusted_head = binding.untrusted_head;
        return IssuedToken{token_store::insert(session, row, now), token};
    });
}

}  // namespace loupe
