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
    /// Commit a short-lived or CI-run token is bound to, if any (allows_commit()).
    std::optional<std::string> bound_commit;
    /// Branch a CI-run token is bound to, if any: builds and deployments must name it.
    std::optional<std::string> bound_branch;
    /// The CI run that vouched for the token does not speak for the project's own repository
    /// (a pull request from a fork): it may not send a build of the branches whose builds are
    /// approved by nature, nor a production deployment, and its builds are baselines only once
    /// a review accepted them.
    bool untrusted_head = false;

    /// kind == user: the token's owner and the accounts of its (filtered) scope.
    int64_t user_id = 0;
    std::vector<AccountRef> scope;

    int64_t token_id = 0;

    /// An OAuth access token's scopes (`argos login`): each route needs one of them (the core
    /// checks, core/src/auth/oauth_scopes). None for every other credential, which the scopes
    /// do not limit.
    std::optional<std::vector<std::string>> oauth_scopes;

    bool is_project() const { return kind == Kind::project; }
    /// Whether the token may send a build or deployment of `commit`: any commit when it is bound
    /// to none; else its commit, as the build's own or as the head commit of its pull request
    /// (a pull-request run builds a merge commit of that head, which no provider vouches for).
    bool allows_commit(const std::string& commit,
                       const std::optional<std::string>& pr_head_commit = std::nullopt) const {
        return !bound_commit || *bound_commit == commit ||
               (pr_head_commit && *bound_commit == *pr_head_commit);
    }
    /// Whether the token may send a build or deployment of `branch`.
    bool allows_branch(const std::string& branch) const {
        return !bound_branch || *bound_branch == branch;
    }
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
