#include "auth/authenticator.hpp"

#include "auth/auth_messages.hpp"
#include "auth/bearer_header.hpp"
#include "auth/token_format.hpp"
#include "identity/token_store.hpp"
#include "loupe/http/http_error.hpp"
#include "loupe/http/request.hpp"
#include "loupe/json.hpp"

namespace loupe {
namespace {

constexpr int64_t last_use_resolution_ms = 60'000;

HttpError unauthorized(std::string_view message) {
    return HttpError::unauthorized(std::string(message));
}

void enforce(const Principal& principal, AuthRequirement requirement,
             const std::string* account_slug) {
    switch (requirement) {
        case AuthRequirement::none:
        case AuthRequirement::project_or_personal_token:
            return;
        case AuthRequirement::project_token:
            if (!principal.is_project()) {
                throw unauthorized(auth_messages::requires_project_token);
            }
            return;
        case AuthRequirement::personal_token:
        case AuthRequirement::personal_token_for_account:
            if (!principal.is_user()) {
                throw unauthorized(auth_messages::requires_personal_token);
            }
            if (requirement == AuthRequirement::personal_token_for_account &&
                account_slug != nullptr && principal.scoped_account(*account_slug) == nullptr) {
                throw unauthorized(auth_messages::no_account_access);
            }
            return;
    }
}

bool is_blank(const std::optional<std::string>& header) {
    return !header || header->find_first_not_of(" \t") == std::string::npos;
}

}  // namespace

Authenticator::Authenticator(Database& database,
                             const std::map<std::string, TokenResolver>& resolvers,
                             const std::vector<SessionResolver>& sessions)
    : database_(database), resolvers_(resolvers), sessions_(sessions) {}

const std::map<std::string, TokenResolver>& Authenticator::no_token_kinds() {
    static const std::map<std::string, TokenResolver> none;
    return none;
}

const std::vector<SessionResolver>& Authenticator::no_sessions() {
    static const std::vector<SessionResolver> none;
    return none;
}

Principal Authenticator::authenticate(const Request& request, AuthRequirement requirement,
                                      const std::string* account_slug) const {
    auto header = request.header("Authorization");
    if (requirement != AuthRequirement::none && is_blank(header)) {
        for (const auto& resolver : sessions_) {
            if (auto principal = resolver(request)) {
                enforce(*principal, requirement, account_slug);
                return *principal;
            }
        }
    }
    return authenticate(header, requirement, account_slug);
}

Principal Authenticator::authenticate(const std::optional<std::string>& authorization_header,
                                      AuthRequirement requirement,
                                      const std::string* account_slug) const {
    if (requirement == AuthRequirement::none) {
        return Principal{};
    }
    // An empty header counts as missing, as in Argos (an empty string is falsy there).
    if (is_blank(authorization_header)) {
        throw unauthorized(auth_messages::missing_header);
    }
    const Principal principal = resolve(parse_bearer_header(*authorization_header));
    enforce(principal, requirement, account_slug);
    return principal;
}

Principal Authenticator::resolve(const std::string& token) const {
    switch (detect_token_kind(token)) {
        case TokenKind::oauth:
            // OAuth access tokens belong to the plugin that issues them (oauth); without it
            // none can be found.
            if (const TokenResolver* resolver = plugin_resolver(token)) {
                return (*resolver)(token);
            }
            throw unauthorized(auth_messages::access_token_not_found);
        case TokenKind::personal:
            return resolve_personal(token);
        case TokenKind::project:
            break;
    }
    if (token.starts_with(short_lived_token_prefix)) {
        return resolve_short_lived(token);
    }
    if (const TokenResolver* resolver = plugin_resolver(token)) {
        return (*resolver)(token);
    }
    return resolve_project(token);
}

Principal Authenticator::resolve_personal(const std::string& token) const {
    const int64_t now = now_ms();
    Principal principal;
    std::optional<int64_t> last_used_at;
    {
        auto session = database_.session();
        auto stored = token_store::find_unrevoked(*session, token);
        if (!stored || stored->kind != "personal" || !stored->user_id) {
            throw unauthorized(auth_messages::access_token_not_found);
        }
        if (stored->expires_at && *stored->expires_at <= now) {
            throw unauthorized(auth_messages::personal_token_expired);
        }
        principal.kind = Principal::Kind::user;
        principal.user_id = *stored->user_id;
        principal.token_id = stored->id;
        principal.scope = token_store::valid_scope(*session, stored->id, *stored->user_id);
        last_used_at = stored->last_used_at;
    }
    if (principal.scope.empty()) {
        throw unauthorized(auth_messages::no_valid_scope);
    }
    note_use(principal.token_id, last_used_at, now);
    return principal;
}

Principal Authenticator::resolve_short_lived(const std::string& token) const {
    const int64_t now = now_ms();
    std::optional<token_store::StoredToken> stored;
    {
        auto session = database_.session();
        stored = token_store::find_unrevoked(*session, token);
    }
    if (!stored || stored->kind != "short_lived" || !stored->project_id ||
        !stored->project_account_id || !stored->expires_at || *stored->expires_at <= now) {
        throw unauthorized(auth_messages::short_lived_invalid);
    }
    Principal principal;
    principal.kind = Principal::Kind::project;
    principal.project_id = *stored->project_id;
    principal.project_account_id = *stored->project_account_id;
    principal.bound_commit = stored->bound_commit;
    principal.bound_branch = stored->bound_branch;
    principal.untrusted_head = stored->untrusted_head;
    principal.token_id = stored->id;
    note_use(stored->id, stored->last_used_at, now);
    return principal;
}

Principal Authenticator::resolve_project(const std::string& token) const {
    std::optional<token_store::StoredToken> stored;
    {
        auto session = database_.session();
        stored = token_store::find_unrevoked(*session, token);
    }
    if (!stored || stored->kind != "project" || !stored->project_id ||
        !stored->project_account_id) {
        throw unauthorized(std::string(auth_messages::project_not_found_start) + token +
                           std::string(auth_messages::project_not_found_end));
    }
    Principal principal;
    principal.kind = Principal::Kind::project;
    principal.project_id = *stored->project_id;
    principal.project_account_id = *stored->project_account_id;
    principal.token_id = stored->id;
    note_use(stored->id, stored->last_used_at, now_ms());
    return principal;
}

const TokenResolver* Authenticator::plugin_resolver(const std::string& token) const {
    const TokenResolver* longest = nullptr;
    std::size_t longest_length = 0;
    for (const auto& [prefix, resolver] : resolvers_) {
        if (token.starts_with(prefix) && (longest == nullptr || prefix.size() > longest_length)) {
            longest = &resolver;
            longest_length = prefix.size();
        }
    }
    return longest;
}

void Authenticator::note_use(int64_t token_id, const std::optional<int64_t>& last_used_at,
                             int64_t now) const {
    if (last_used_at && now - *last_used_at < last_use_resolution_ms) {
        return;
    }
    database_.transaction(
        [&](soci::session& session) { token_store::mark_used(session, token_id, now); });
}

}  // namespace loupe
