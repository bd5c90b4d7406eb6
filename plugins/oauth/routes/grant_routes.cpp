// The applications a person signed in with `argos login` (the settings page): GET
// /_loupe/oauth/grants lists their grants that still hold a live token (the application, its
// scopes, when it was approved and last given a token), DELETE /_loupe/oauth/grants/{grantId}
// ends one and every token of it, as `argos logout` does. Only the person's own grants.
#include "clients/oauth_clients.hpp"
#include "loupe/http/http_error.hpp"
#include "loupe/http/integer_text.hpp"
#include "loupe/text/strings.hpp"
#include "routes/oauth_routes.hpp"
#include "store/oauth_store.hpp"

namespace loupe::oauth {

void add_grant_routes(Host& host) {
    host.routes().add(
        Method::get, "/_loupe/oauth/grants", AuthRequirement::personal_token,
        RouteAccess::signed_in(), [&host](Request& request) {
            Json grants = Json::array();
            host.db().transaction([&](soci::session& session) {
                for (const auto& grant :
                     store::live_grants(session, request.principal().user_id, now_ms())) {
                    const auto client = find_client(grant.client_id);
                    Json scopes = Json::array();
                    for (const auto scope : split(grant.scope, ' ')) {
                        if (!scope.empty()) {
                            scopes.push_back(std::string(scope));
                        }
                    }
                    grants.push_back(Json{{"id", std::to_string(grant.id)},
                                          {"client",
                                           {{"id", grant.client_id},
                                            {"name", client ? client->name : grant.client_id}}},
                                          {"scopes", std::move(scopes)},
                                          {"createdAt", iso_time(grant.created_at)},
                                          {"lastUsedAt", iso_time(grant.last_token_at)}});
                }
            });
            return Response::json(Json{{"grants", std::move(grants)}})
                .with_header("Cache-Control", "no-store");
        });

    host.routes().add(
        Method::del, "/_loupe/oauth/grants/{grantId}", AuthRequirement::personal_token,
        RouteAccess::signed_in(), [&host](Request& request) {
            const auto id = path_id(request.param("grantId"));
            bool revoked = false;
            if (id) {
                host.db().transaction([&](soci::session& session) {
                    const auto grant = store::find_grant(session, *id);
                    if (grant && !grant->revoked && grant->user_id == request.principal().user_id) {
                        store::revoke_grant(session, *id, now_ms());
                        revoked = true;
                    }
                });
            }
            if (!revoked) {
                throw HttpError::not_found("Grant not found");
            }
            return Response::json(Json{{"id", std::to_string(*id)}, {"revoked", true}});
        });
}

}  // namespace loupe::oauth
