// A person's own personal access tokens (the settings page): GET /_loupe/tokens lists the live
// ones (never their secrets), POST /_loupe/tokens makes one and shows its secret once, DELETE
// /_loupe/tokens/{tokenId} revokes one. A token may be scoped only to accounts the caller's own
// credential reaches: a personal access token scoped to one team cannot mint a token for
// another (a browser session reaches every account of its person). OAuth access tokens of
// `argos login` are refused here (no scope covers these routes): a token of limited scopes
// must not turn itself into one of none.
#include <algorithm>
#include <cstdint>

#include "loupe/http/integer_text.hpp"
#include "loupe/http/json_reader.hpp"
#include "loupe/text/strings.hpp"
#include "routes/routes.hpp"

namespace loupe::auth {
namespace {

constexpr int64_t day_ms = 24LL * 3600 * 1000;
constexpr int64_t max_expiry_days = 3650;
constexpr int64_t default_expiry_days = 90;

struct NewTokenInput {
    std::string name;
    std::vector<std::string> accounts;  ///< slugs; empty: the caller's personal account
    std::optional<int64_t> expires_in_days = default_expiry_days;
};

/// `{name: string 1..100, accounts?: string[1..50], expiresInDays?: 1..3650 | null}` (null:
/// never expires).
NewTokenInput read_new_token(Request& request) {
    NewTokenInput input;
    Validation validation;
    JsonReader body(object_body(request), validation);
    if (auto name = body.string("name", true, 1)) {
        input.name = std::string(trim(*name));
        if (input.name.empty() || input.name.size() > 100) {
            body.issue("name", "Expected a name of 1 to 100 characters");
        }
    }
    if (const Json* accounts = body.array("accounts", false, 1)) {
        if (accounts->size() > 50) {
            body.issue("accounts", "Too big: expected array to have <=50 items");
        }
        for (std::size_t i = 0; i < accounts->size() && i < 50; ++i) {
            const Json& slug = (*accounts)[i];
            if (!slug.is_string() || slug.get<std::string>().empty()) {
                body.issue("accounts." + std::to_string(i), "Expected an account slug");
                continue;
            }
            input.accounts.push_back(slug.get<std::string>());
        }
    }
    if (body.get("expiresInDays") != nullptr && body.get("expiresInDays")->is_null()) {
        input.expires_in_days = std::nullopt;
    } else if (auto days = body.integer("expiresInDays", false, 1)) {
        if (*days > max_expiry_days) {
            body.issue("expiresInDays", "Too big: expected number to be <=3650");
        }
        input.expires_in_days = days;
    }
    validation.throw_if_any();
    return input;
}

Json token_json(const PersonalTokenInfo& token) {
    Json accounts = Json::array();
    for (const auto& account : token.scope) {
        accounts.push_back(account.slug);
    }
    return Json{{"id", std::to_string(token.id)},
                {"name", token.name},
                {"prefix", token.prefix},
                {"accounts", std::move(accounts)},
                {"createdAt", iso_time(token.created_at)},
                {"expiresAt", token.expires_at ? Json(iso_time(*token.expires_at)) : Json()},
                {"lastUsedAt", token.last_used_at ? Json(iso_time(*token.last_used_at)) : Json()}};
}

/// The accounts the new token is scoped to: each must be one the caller's credential reaches.
std::vector<AccountRef> scope_of(Host& host, const Principal& caller, const NewTokenInput& input) {
    std::vector<std::string> slugs = input.accounts;
    if (slugs.empty()) {
        const auto user = host.identity().find_user(caller.user_id);
        slugs.push_back(user ? user->slug : "");
    }
    std::vector<AccountRef> scope;
    for (const auto& slug : slugs) {
        const AccountRef* reached = caller.scoped_account(slug);
        if (reached == nullptr) {
            throw HttpError::forbidden("You cannot make a token for the account \"" + slug +
                                       "\": your credential does not reach it.");
        }
        if (std::none_of(scope.begin(), scope.end(),
                         [&](const AccountRef& held) { return held.id == reached->id; })) {
            scope.push_back(*reached);
        }
    }
    return scope;
}

}  // namespace

void add_personal_tokens(Host& host) {
    host.routes().add(Method::get, "/_loupe/tokens", AuthRequirement::personal_token,
                      RouteAccess::signed_in(), [&host](Request& request) {
                          Json tokens = Json::array();
                          host.db().transaction([&](soci::session& session) {
                              for (const auto& token : host.identity().personal_tokens(
                                       session, request.principal().user_id)) {
                                  tokens.push_back(token_json(token));
                              }
                          });
                          return Response::json(Json{{"tokens", std::move(tokens)}})
                              .with_header("Cache-Control", "no-store");
                      });

    host.routes().add_validated(
        Method::post, "/_loupe/tokens", AuthRequirement::personal_token, RouteAccess::signed_in(),
        read_new_token, [&host](Request& request, const NewTokenInput& input) {
            const Principal& caller = request.principal();
            const auto scope = scope_of(host, caller, input);
            const std::optional<int64_t> expires_at =
                input.expires_in_days
                    ? std::optional<int64_t>(now_ms() + *input.expires_in_days * day_ms)
                    : std::nullopt;
            Json answer;
            host.db().transaction([&](soci::session& session) {
                const auto issued = host.identity().create_personal_token(
                    session, caller.user_id, input.name, scope, expires_at);
                for (const auto& token : host.identity().personal_tokens(session, caller.user_id)) {
                    if (token.id == issued.id) {
                        answer = token_json(token);
                    }
                }
                answer["token"] = issued.token;  // shown this once; only its hash is kept
            });
            return Response::json(answer, 201).with_header("Cache-Control", "no-store");
        });

    host.routes().add(
        Method::del, "/_loupe/tokens/{tokenId}", AuthRequirement::personal_token,
        RouteAccess::signed_in(), [&host](Request& request) {
            const auto id = path_id(request.param("tokenId"));
            bool revoked = false;
            if (id) {
                host.db().transaction([&](soci::session& session) {
                    revoked = host.identity().revoke_personal_token(
                        session, request.principal().user_id, *id);
                });
            }
            if (!revoked) {
                throw HttpError::not_found("Token not found");
            }
            return Response::json(Json{{"id", std::to_string(*id)}, {"revoked", true}});
        });
}

}  // namespace loupe::auth
