#include "identity/token_store.hpp"

#include "auth/token_format.hpp"
#include "loupe/crypto/digest.hpp"
#include "loupe/db/nullable.hpp"
#include "loupe/db/row_reader.hpp"

namespace loupe::token_store {
namespace {

/// Rows of (id, slug) as account references.
std::vector<AccountRef> account_refs(soci::rowset<soci::row>& rows) {
    std::vector<AccountRef> accounts;
    for (const auto& row : rows) {
        const RowReader read(row);
        AccountRef account;
        account.id = read.int64("id");
        account.slug = read.text("slug");
        accounts.push_back(std::move(account));
    }
    return accounts;
}

}  // namespace

int64_t insert(soci::session& session, const NewToken& token, int64_t now) {
    const std::string hash = crypto::sha256_hex(token.token);
    const std::string prefix = token_prefix(token.token);
    Nullable<int64_t> project_id(token.project_id);
    Nullable<int64_t> user_id(token.user_id);
    Nullable<int64_t> expires_at(token.expires_at);
    Nullable<std::string> bound_commit(token.bound_commit);
    Nullable<std::string> bound_branch(token.bound_branch);
    Nullable<std::string> name(token.name);
    const int untrusted_head = token.untrusted_head ? 1 : 0;
    long long id = 0;
    session << "INSERT INTO tokens (kind, token_hash, prefix, project_id, user_id, expires_at, "
               "bound_commit, bound_branch, untrusted_head, name, created_at) VALUES (:kind, "
               ":hash, :prefix, :project, :user, :expires, :commit, :branch, :untrusted, :name, "
               ":now) RETURNING id",
        soci::use(token.kind), soci::use(hash), soci::use(prefix),
        soci::use(project_id.value, project_id.indicator),
        soci::use(user_id.value, user_id.indicator),
        soci::use(expires_at.value, expires_at.indicator),
        soci::use(bound_commit.value, bound_commit.indicator),
        soci::use(bound_branch.value, bound_branch.indicator), soci::use(untrusted_head),
        soci::use(name.value, name.indicator), soci::use(now), soci::into(id);
    return id;
}

void add_scope(soci::session& session, int64_t token_id, int64_t account_id) {
    session << "INSERT INTO token_scopes (token_id, account_id) VALUES (:token, :account) "
               "ON CONFLICT (token_id, account_id) DO NOTHING",
        soci::use(token_id), soci::use(account_id);
}

std::optional<StoredToken> find_unrevoked(soci::session& session, const std::string& token) {
    const std::string hash = crypto::sha256_hex(token);
    soci::row row;
    session << "SELECT t.id, t.kind, t.project_id, p.account_id, t.user_id, t.expires_at, "
               "t.bound_commit, t.last_used_at, t.bound_branch, t.untrusted_head FROM tokens t "
               "LEFT JOIN projects p ON p.id = t.project_id "
               "WHERE t.token_hash = :hash AND t.revoked_at IS NULL",
        soci::use(hash), soci::into(row);
    if (!session.got_data()) {
        return std::nullopt;
    }
    const RowReader read(row);
    StoredToken stored;
    stored.id = read.int64("id");
    stored.kind = read.text("kind");
    stored.project_id = read.optional_int("project_id");
    stored.project_account_id = read.optional_int("account_id");
    stored.user_id = read.optional_int("user_id");
    stored.expires_at = read.optional_int("expires_at");
    stored.bound_commit = read.optional_text("bound_commit");
    stored.last_used_at = read.optional_int("last_used_at");
    stored.bound_branch = read.optional_text("bound_branch");
    stored.untrusted_head = read.int64("untrusted_head") != 0;
    return stored;
}

std::vector<AccountRef> valid_scope(soci::session& session, int64_t token_id, int64_t user_id) {
    soci::rowset<soci::row> rows =
        (session.prepare << "SELECT a.id, a.slug FROM token_scopes s "
                            "JOIN accounts a ON a.id = s.account_id "
                            "WHERE s.token_id = :token AND ((a.kind = 'user' AND a.user_id = "
                            ":owner) OR EXISTS (SELECT 1 FROM team_members m WHERE "
                            "m.account_id = a.id AND m.user_id = :member)) ORDER BY a.slug",
         soci::use(token_id), soci::use(user_id), soci::use(user_id));
    return account_refs(rows);
}

std::vector<PersonalTokenInfo> live_personal_tokens(soci::session& session, int64_t user_id,
                                                    int64_t now) {
    std::vector<PersonalTokenInfo> tokens;
    {
        soci::rowset<soci::row> rows =
            (session.prepare << "SELECT id, name, prefix, created_at, expires_at, last_used_at "
                                "FROM tokens WHERE kind = 'personal' AND user_id = :user AND "
                                "revoked_at IS NULL AND (expires_at IS NULL OR expires_at > :now) "
                                "ORDER BY created_at DESC, id DESC",
             soci::use(user_id), soci::use(now));
        for (const auto& row : rows) {
            const RowReader read(row);
            PersonalTokenInfo token;
            token.id = read.int64("id");
            token.name = read.optional_text("name").value_or("");
            token.prefix = read.text("prefix");
            token.created_at = read.int64("created_at");
            token.expires_at = read.optional_int("expires_at");
            token.last_used_at = read.optional_int("last_used_at");
            tokens.push_back(std::move(token));
        }
    }
    for (auto& token : tokens) {
        token.scope = valid_scope(session, token.id, user_id);
    }
    return tokens;
}

bool revoke_personal(soci::session& session, int64_t user_id, int64_t token_id, int64_t now) {
    soci::statement update =
        (session.prepare << "UPDATE tokens SET revoked_at = :now WHERE id = :id AND kind = "
                            "'personal' AND user_id = :user AND revoked_at IS NULL AND "
                            "(expires_at IS NULL OR expires_at > :live)",
         soci::use(now), soci::use(token_id), soci::use(user_id), soci::use(now));
    update.execute(true);
    return update.get_affected_rows() == 1;
}

std::vector<ProjectTokenInfo> live_project_tokens(soci::session& session, int64_t project_id) {
    soci::rowset<soci::row> rows =
        (session.prepare << "SELECT id, prefix, created_at, last_used_at FROM tokens WHERE "
                            "kind = 'project' AND project_id = :project AND revoked_at IS NULL "
                            "ORDER BY created_at DESC, id DESC",
         soci::use(project_id));
    std::vector<ProjectTokenInfo> tokens;
    for (const auto& row : rows) {
        const RowReader read(row);
        ProjectTokenInfo token;
        token.id = read.int64("id");
        token.prefix = read.text("prefix");
        token.created_at = read.int64("created_at");
        token.last_used_at = read.optional_int("last_used_at");
        tokens.push_back(std::move(token));
    }
    return tokens;
}

bool revoke_project(soci::session& session, int64_t project_id, int64_t token_id, int64_t now) {
    soci::statement update =
        (session.prepare << "UPDATE tokens SET revoked_at = :now WHERE id = :id AND kind = "
                            "'project' AND project_id = :project AND revoked_at IS NULL",
         soci::use(now), soci::use(token_id), soci::use(project_id));
    update.execute(true);
    return update.get_affected_rows() == 1;
}

bool is_live_personal(soci::session& session, int64_t token_id, int64_t user_id, int64_t now) {
    long long count = 0;
    session << "SELECT COUNT(*) FROM tokens WHERE id = :id AND kind = 'personal' AND "
               "user_id = :user AND revoked_at IS NULL AND (expires_at IS NULL OR "
               "expires_at > :now)",
        soci::use(token_id), soci::use(user_id), soci::use(now), soci::into(count);
    return count > 0;
}

std::vector<AccountRef> user_accounts(soci::session& session, int64_t user_id) {
    soci::rowset<soci::row> rows =
        (session.prepare << "SELECT a.id, a.slug FROM accounts a WHERE (a.kind = 'user' AND "
                            "a.user_id = :owner) OR EXISTS (SELECT 1 FROM team_members m WHERE "
                            "m.account_id = a.id AND m.user_id = :member) ORDER BY a.slug",
         soci::use(user_id), soci::use(user_id));
    return account_refs(rows);
}

void mark_used(soci::session& session, int64_t token_id, int64_t now) {
    session << "UPDATE tokens SET last_used_at = :now WHERE id = :id", soci::use(now),
        soci::use(token_id);
}

void delete_expired_short_lived(soci::session& session, int64_t project_id, int64_t now) {
    session << "DELETE FROM tokens WHERE project_id = :project AND kind = 'short_lived' AND "
               "expires_at < :now",
        soci::use(project_id), soci::use(now);
}

}  // namespace loupe::token_store
