// The page that opens an invite (`/_loupe/join/{token}`) asks these routes, as the signed-in
// person: what the token opens (the team, the role, the address an email invite was sent to),
// and to join. The token is the credential for the team; the session says who joins.
#include "routes/routes.hpp"

namespace loupe::auth {

void add_join_team(Host& host, InviteStore& invites) {
    host.routes().add(
        Method::get, "/_loupe/invites/{token}", AuthRequirement::personal_token,
        RouteAccess::signed_in(), [&invites](Request& request) {
            const auto preview = invites.preview(request.param("token"));
            return Response::json(
                       Json{{"team", {{"slug", preview.team.slug}, {"name", preview.team.name}}},
                            {"level", role_name(preview.level)},
                            {"email", preview.email ? Json(*preview.email) : Json()},
                            {"expired", preview.expired}})
                .with_header("Cache-Control", "no-store");
        });

    host.routes().add(Method::post, "/_loupe/invites/{token}/accept",
                      AuthRequirement::personal_token, RouteAccess::signed_in(),
                      [&invites](Request& request) {
                          const auto [team, level] =
                              invites.accept(request.principal().user_id, request.param("token"));
                          return Response::json(
                              Json{{"team", {{"slug", team.slug}}}, {"level", role_name(level)}});
                      });
}

}  // namespace loupe::auth
