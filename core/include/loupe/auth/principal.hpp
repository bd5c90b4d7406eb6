#pragma once
// Who is calling, resolved by the core from the bearer token before the handler runs.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace loupe {

struct AccountRef {
    int64_t id = 0;
    std::string slug;
};

struct Principal {
    enum class Kind { anonymous, project, user };
    Kind kind = Kind::anonymous;

    /// kind == project: the token's project and its account.
    int64_t project_id = 0;
    int64_t project_account_id = 0;
    /// Commit a short-lived token is bound to, if any.
    std::optional<std::string> bound_commit;

    /// kind == user: the token's owner and the accounts of its (filtered) scope.
    int64_t user_id = 0;
    std::vector<AccountRef> scope;

    int64_t token_id = 0;

    bool is_project() const { return kind == Kind::project; }
    bool is_user() const { return kind == Kind::user; }
    /// The scope entry with this slug, if the token is scoped to it.
    const AccountRef* scoped_account(const std::string& slug) const {
        for (const auto& account : scope) {
            if (account.slug == slug) {
                return &account;
            }
        }
        return nullptr;
    }
};

}  // namespace loupe
