#include "routes/routes.hpp"

namespace loupe::auth {
namespace {

/// Argos answers a missing display name as null.
Json name_or_null(const std::string& name) {
    return name.empty() ? Json(nullptr) : Json(name);
}

/// The Me resource: the caller's personal account as a User, and every account the calling
/// credential's scope reaches (a personal access token's chosen accounts, or all of a browser
/// session's user's accounts), personal account first as the scope lists them.
Json me_json(Identity& identity, const Principal& principal) {
    Json me = identity.user_ref(principal.user_id);
    Json accounts = Json::array();
    for (const AccountRef& ref : principal.scope) {
        const auto account = identity.find_account(ref.slug);
        if (!account) {
            continue;  // deleted since the scope was read
        }
        accounts.push_back({{"id", std::to_string(account->id)},
                            {"slug", account->slug},
                            {"name", name_or_null(account->name)},
                            {"type", account->kind == AccountKind::user ? "user" : "team"}});
    }
    me["accounts"] = std::move(accounts);
    return me;
}

}  // namespace

void add_get_me(Host& host) {
    auto& identity = host.identity();
    // A project token names no user: the core refuses it with 401 "This endpoint requires a
    // personal access token", as Argos does.
    host.routes().add(Method::get, "/me", AuthRequirement::personal_token, RouteAccess::signed_in(),
                      [&identity](Request& request) {
                          return Response::json(me_json(identity, request.principal()));
                      });
}

}  // namespace loupe::auth
