// A project's tokens for its administrators (the project's settings page): GET
// /_loupe/projects/{owner}/{project}/tokens lists the live ones by their first characters, POST
// makes a new one (its secret shown once) while the old keep working, DELETE …/tokens/{tokenId}
// revokes one: rotation without downtime (make the new token, put it in CI, revoke the old).
// A personal access token or a browser session of a project admin; never a project token.
#include <cstdint>

#include "loupe/http/integer_text.hpp"
#include "routes/routes.hpp"

namespace loupe::auth {
namespace {

const char* const not_project_admin = "You are not an administrator of this project.";

Json project_token_json(const ProjectTokenInfo& token) {
    return Json{{"id", std::to_string(token.id)},
                {"prefix", token.prefix},
                {"createdAt", iso_time(token.created_at)},
                {"lastUsedAt", token.last_used_at ? Json(iso_time(*token.last_used_at)) : Json()}};
}

}  // namespace

void add_project_tokens(Host& host) {
    const std::string path = "/_loupe/projects/{owner}/{project}/tokens";
    host.routes().add(
        Method::get, path, AuthRequirement::personal_token,
        RouteAccess::project(ProjectPermission::admin, not_project_admin),
        [&host](Request& request) {
            const Project& project = request.access().require_project();
            Json tokens = Json::array();
            host.db().transaction([&](soci::session& session) {
                for (const auto& token : host.identity().project_tokens(session, project.id)) {
                    tokens.push_back(project_token_json(token));
                }
            });
            return Response::json(Json{{"tokens", std::move(tokens)}})
                .with_header("Cache-Control", "no-store");
        });

    host.routes().add(
        Method::post, path, AuthRequirement::personal_token,
        RouteAccess::project(ProjectPermission::admin, not_project_admin),
        [&host](Request& request) {
            const Project& project = request.access().require_project();
            Json answer;
            host.db().transaction([&](soci::session& session) {
                const auto issued = host.identity().create_project_token(session, project.id);
                for (const auto& token : host.identity().project_tokens(session, project.id)) {
                    if (token.id == issued.id) {
                        answer = project_token_json(token);
                    }
                }
                answer["token"] = issued.token;  // shown once; its hash is kept
            });
            return Response::json(answer, 201).with_header("Cache-Control", "no-store");
        });

    host.routes().add(
        Method::del, path + "/{tokenId}", AuthRequirement::personal_token,
        RouteAccess::project(ProjectPermission::admin, not_project_admin),
        [&host](Request& request) {
            const Project& project = request.access().require_project();
            const auto id = path_id(request.param("tokenId"));
            bool revoked = false;
            if (id) {
                host.db().transaction([&](soci::session& session) {
                    revoked = host.identity().revoke_project_token(session, project.id, *id);
                });
            }
            if (!revoked) {
                throw HttpError::not_found("Token not found");
            }
            return Response::json(Json{{"id", std::to_string(*id)}, {"revoked", true}});
        });
}

}  // namespace loupe::auth
