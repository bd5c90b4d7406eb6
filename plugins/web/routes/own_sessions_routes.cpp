// A person's own browser sessions (the settings page): GET /_loupe/sessions lists the live ones
// (browser, when signed in, last seen; `current` marks the caller's own), DELETE
// /_loupe/sessions/{sessionId} signs one out, POST /_loupe/sessions/sign-out-others signs out
// every one but the caller's. A session signed out elsewhere answers 401 at its next request.
#include "loupe/http/http_error.hpp"
#include "loupe/http/integer_text.hpp"
#include "routes/routes.hpp"

namespace loupe::web {

void add_own_sessions_routes(Host& host, std::shared_ptr<SessionManager> sessions) {
    host.routes().add(Method::get, "/_loupe/sessions", AuthRequirement::personal_token,
                      RouteAccess::signed_in(), [sessions](Request& request) {
                          const int64_t user_id = request.principal().user_id;
                          const auto own = sessions->session_id(request);
                          Json listed = Json::array();
                          for (const auto& item : sessions->live_sessions(user_id)) {
                              listed.push_back(Json{{"id", std::to_string(item.id)},
                                                    {"userAgent", item.user_agent},
                                                    {"createdAt", iso_time(item.created_at)},
                                                    {"lastSeenAt", iso_time(item.last_seen_at)},
                                                    {"expiresAt", iso_time(item.expires_at)},
                                                    {"current", own && *own == item.id}});
                          }
                          return Response::json(Json{{"sessions", std::move(listed)}})
                              .with_header("Cache-Control", "no-store");
                      });

    host.routes().add(
        Method::del, "/_loupe/sessions/{sessionId}", AuthRequirement::personal_token,
        RouteAccess::signed_in(), [sessions](Request& request) {
            const auto id = path_id(request.param("sessionId"));
            if (!id || !sessions->revoke_session(request.principal().user_id, *id)) {
                throw HttpError::not_found("Session not found");
            }
            return Response::json(Json{{"id", std::to_string(*id)}, {"signedOut", true}});
        });

    host.routes().add(
        Method::post, "/_loupe/sessions/sign-out-others", AuthRequirement::personal_token,
        RouteAccess::signed_in(), [sessions](Request& request) {
            const int count = sessions->revoke_other_sessions(request.principal().user_id, request);
            return Response::json(Json{{"signedOut", count}});
        });
}

}  // namespace loupe::web
