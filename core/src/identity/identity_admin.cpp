// The administrative operations behind `loupe admin`: validated inputs, one transaction each,
// AdminError with a message for the operator.
#include <algorithm>

#include "auth/token_format.hpp"
#include "identity/identity_rows.hpp"
#include "identity/identity_store.hpp"
#include "identity/identity_writes.hpp"
#include "identity/names.hpp"
#include "loupe/cli/lookups.hpp"
#include "loupe/crypto/digest.hpp"
#include "loupe/db/row_reader.hpp"
#include "loupe/text/strings.hpp"

namespace loupe {
namespace {

void check(const std::optional<std::string>& problem) {
    if (problem) {
        throw AdminError(*problem);
    }
}

User require_user(soci::session& session, const std::string& slug) {
    auto user = identity_rows::user_by_slug(session, slug);
    if (!user) {
        throw AdminError("No user with slug \"" + slug + "\"");
    }
    return *user;
}

Account require_account(soci::session& session, const std::string& slug) {
    auto account = identity_rows::account_by_slug(session, slug);
    if (!account) {
        throw AdminError("No account with slug \"" + slug + "\"");
    }
    return *account;
}

bool belongs_to(soci::session& session, const User& user, const Account& account) {
    if (account.kind == AccountKind::user) {
        return account.user_id == user.id;
    }
    return identity_rows::team_role(session, account.id, user.id).has_value();
}

bool is_prefix_text(const std::string& prefix) {
    return std::all_of(prefix.begin(), prefix.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
    });
}

}  // namespace

bool IdentityStore::has_any_user() {
    auto session = database_.session();
    long long users = 0;
    *session << "SELECT COUNT(*) FROM users", soci::into(users);
    return users > 0;
}

void IdentityStore::set_reserved_slugs(std::set<std::string> slugs) {
    reserved_slugs_ = std::move(slugs);
}

// A user's slug is also its personal account's: both name the page "/{slug}", which a path of
// the server's own ("/v2", "/d", "/healthz", ...) would hide.
void IdentityStore::check_slug(const std::string& slug) const {
    check(slug_problem(slug));
    if (reserved_slugs_.contains(slug)) {
        throw AdminError("Slug \"" + slug + "\" is reserved: /" + slug +
                         " is one of the server's own paths, so an account there would have no "
                         "page; choose another slug");
    }
}

User IdentityStore::create_user(const std::string& slug, const std::string& name, bool staff) {
    check_slug(slug);
    check(display_name_problem(name));
    const std::string clean_name(trim(name));
    return database_.transaction([&](soci::session& session) {
        return identity_writes::create_user(session, slug, clean_name, staff, now_ms());
    });
}

Account IdentityStore::create_team(const std::string& slug, const std::string& name,
                                   const std::string& owner_slug) {
    check_slug(slug);
    check(display_name_problem(name));
    const std::string clean_name(trim(name));
    return database_.transaction([&](soci::session& session) {
        const User owner = require_user(session, owner_slug);
        return identity_writes::create_team(session, slug, clean_name, owner, now_ms());
    });
}

void IdentityStore::add_member(const std::string& account_slug, const std::string& user_slug,
                               Role role) {
    database_.transaction([&](soci::session& session) {
        const Account account = require_account(session, account_slug);
        if (account.kind != AccountKind::team) {
            throw AdminError("Account \"" + account_slug +
                             "\" is a personal account: only teams have members");
        }
        const User user = require_user(session, user_slug);
        identity_writes::set_member(session, account, user, role, now_ms());
    });
}

Project IdentityStore::grant_project_level(const std::string& project_ref,
                                           const std::string& user_slug,
                                           const std::optional<std::string>& level) {
    const auto parts = cli::split_project_reference(project_ref);
    if (!parts) {
        throw AdminError("--project takes <account>/<project>, not \"" + project_ref + "\"");
    }
    return database_.transaction([&](soci::session& session) {
        auto project = identity_rows::project_by_name(session, parts->first, parts->second);
        if (!project) {
            throw AdminError("No project \"" + project_ref + "\"");
        }
        const User user = require_user(session, user_slug);
        identity_writes::set_project_level(session, project->id, user.id, level, now_ms());
        return *project;
    });
}

std::pair<Project, IssuedToken> IdentityStore::create_project(const std::string& account_slug,
                                                              const std::string& name,
                                                              const std::string& base_branch) {
    const std::string clean_name(trim(name));
    if (auto problem = project_name_problem(clean_name)) {
        throw AdminError("Invalid project name \"" + clean_name + "\": " + *problem);
    }
    if (is_reserved_project_name(clean_name)) {
        throw AdminError("Name is reserved for internal usage");
    }
    check(branch_problem(base_branch));
    const std::string token = generate_project_token();
    return database_.transaction([&](soci::session& session) {
        const Account account = require_account(session, account_slug);
        auto created = identity_writes::create_project(session, account, clean_name, base_branch,
                                                       token, now_ms());
        if (!created) {
            throw AdminError("Name is already used by another project");
        }
        return *created;
    });
}

IssuedToken IdentityStore::create_personal_token(const std::string& user_slug,
                                                 const std::vector<std::string>& account_slugs,
                                                 std::optional<int64_t> expires_at_ms) {
    if (expires_at_ms && *expires_at_ms <= now_ms()) {
        throw AdminError("The expiry of a token must be in the future");
    }
    const std::string token = generate_personal_token();
    return database_.transaction([&](soci::session& session) {
        const User user = require_user(session, user_slug);
        std::vector<Account> scope;
        if (account_slugs.empty()) {
            scope.push_back(require_account(session, user.slug));
        }
        for (const auto& slug : account_slugs) {
            Account account = require_account(session, slug);
            if (!belongs_to(session, user, account)) {
                throw AdminError("User \"" + user.slug + "\" does not belong to account \"" + slug +
                                 "\"");
            }
            scope.push_back(std::move(account));
        }
        return identity_writes::create_personal_token(session, user, scope, expires_at_ms, token,
                                                      now_ms());
    });
}

int IdentityStore::revoke_tokens(const std::string& prefix) {
    constexpr std::size_t minimum = 8;
    if (prefix.size() < minimum) {
        throw AdminError("Token prefix \"" + prefix + "\" is too short: give at least " +
                         std::to_string(minimum) + " characters (as shown by `token list`)");
    }
    if (!is_prefix_text(prefix)) {
        throw AdminError("Token prefix \"" + prefix +
                         "\" has characters that never appear in a token");
    }
    return database_.transaction([&](soci::session& session) {
        const int64_t now = now_ms();
        if (prefix.size() > visible_prefix_length) {
            // Longer than any stored prefix: this can only be a whole token.
            const std::string hash = crypto::sha256_hex(prefix);
            soci::statement update = (session.prepare << "UPDATE tokens SET revoked_at = :now "
                                                         "WHERE token_hash = :hash AND "
                                                         "revoked_at IS NULL",
                                      soci::use(now), soci::use(hash));
            update.execute(true);
            return static_cast<int>(update.get_affected_rows());
        }
        const int length = static_cast<int>(prefix.size());
        soci::statement update = (session.prepare << "UPDATE tokens SET revoked_at = :now WHERE "
                                                     "substr(prefix, 1, :length) = :prefix AND "
                                                     "revoked_at IS NULL",
                                  soci::use(now), soci::use(length), soci::use(prefix));
        update.execute(true);
        return static_cast<int>(update.get_affected_rows());
    });
}

std::vector<User> IdentityStore::list_users() {
    auto session = database_.session();
    return identity_rows::all_users(*session);
}

std::vector<Project> IdentityStore::list_projects() {
    auto session = database_.session();
    return identity_rows::all_projects(*session);
}

std::vector<TokenListing> IdentityStore::list_tokens() {
    auto session = database_.session();
    const int64_t now = now_ms();
    soci::rowset<soci::row> rows =
        (session->prepare << "SELECT t.id, t.kind, t.prefix, u.slug AS user_slug, "
                             "a.slug AS account_slug, p.name AS project_name, "
                             "t.expires_at, t.revoked_at FROM tokens t "
                             "LEFT JOIN users u ON u.id = t.user_id "
                             "LEFT JOIN projects p ON p.id = t.project_id "
                             "LEFT JOIN accounts a ON a.id = p.account_id "
                             "WHERE t.kind <> 'short_lived' OR t.expires_at > :now "
                             "ORDER BY t.id",
         soci::use(now));
    std::vector<TokenListing> tokens;
    for (const auto& row : rows) {
        const RowReader read(row);
        TokenListing token;
        token.id = read.int64("id");
        token.kind = read.text("kind");
        token.prefix = read.text("prefix");
        auto user = read.optional_text("user_slug");
        auto account = read.optional_text("account_slug");
        auto project = read.optional_text("project_name");
        token.owner = user ? *user : account.value_or("") + "/" + project.value_or("");
        token.expires_at = read.optional_int("expires_at");
        token.revoked = read.optional_int("revoked_at").has_value();
        tokens.push_back(std::move(token));
    }
    return tokens;
}

}  // namespace loupe
