#pragma once
// Bearer header → Principal, enforcing a route's AuthRequirement with the exact Argos statuses
// and messages (auth_messages.hpp).

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "loupe/auth/auth_requirement.hpp"
#include "loupe/auth/principal.hpp"
#include "loupe/auth/token_resolvers.hpp"
#include "loupe/db/database.hpp"
#include "loupe/export.hpp"

namespace loupe {

class LOUPE_API Authenticator {
public:
    /// `resolvers`: plugin token kinds by prefix; `sessions`: plugin session resolvers (both
    /// frozen after install, outliving the Authenticator).
    Authenticator(Database& database, const std::map<std::string, TokenResolver>& resolvers,
                  const std::vector<SessionResolver>& sessions = no_sessions());

    /// Throws HttpError: 401 missing header, 400 malformed, 401 unknown/expired token or wrong
    /// kind for the requirement, 401 account not in scope for personal_token_for_account
    /// (`account_slug` is the route's {accountSlug}). Returns an anonymous principal for
    /// AuthRequirement::none without reading the header.
    Principal authenticate(const std::optional<std::string>& authorization_header,
                           AuthRequirement requirement, const std::string* account_slug) const;

    /// authenticate() for a whole request: without an Authorization header, the session
    /// resolvers may name the caller (routes that require no token stay anonymous).
    Principal authenticate(const Request& request, AuthRequirement requirement,
                           const std::string* account_slug) const;

    /// No token kind at all: with no_sessions(), an Authenticator that names nobody, as an
    /// extra listener's (whose routes all take no credential).
    static const std::map<std::string, TokenResolver>& no_token_kinds();
    static const std::vector<SessionResolver>& no_sessions();

private:
    Principal resolve(const std::string& token) const;
    Principal resolve_personal(const std::string& token) const;
    Principal resolve_short_lived(const std::string& token) const;
    Principal resolve_project(const std::string& token) const;
    const TokenResolver* plugin_resolver(const std::string& token) const;
    /// Records last use at most once a minute per token, so reads rarely write.
    void note_use(int64_t token_id, const std::optional<int64_t>& last_used_at, int64_t now) const;

    Database& database_;
    const std::map<std::string, TokenResolver>& resolvers_;
    const std::vector<SessionResolver>& sessions_;
};

}  // namespace loupe
