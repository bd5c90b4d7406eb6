// The token and revocation endpoints (RFC 6749, RFC 7009): form-encoded requests from the
// application itself, answered with OAuth's own error shape ({"error", "error_description"}),
// which OAuth clients read, and never cached.
#include "loupe/http/form_body.hpp"
#include "loupe/http/http_error.hpp"
#include "routes/oauth_routes.hpp"

namespace loupe::oauth {
namespace {

Response no_store(Response response) {
    return response.with_header("Cache-Control", "no-store").with_header("Pragma", "no-cache");
}

Response oauth_error(int status, const std::string& error, const std::string& description) {
    return no_store(
        Response::json(Json{{"error", error}, {"error_description", description}}, status));
}

/// The form fields of the body (the route's BodyMode::form checked its media type).
std::optional<std::map<std::string, std::string>> form_of(Request& request) {
    return parse_form_body(request.body());
}

}  // namespace

void add_token_routes(Host& host, std::shared_ptr<AuthorizationServer> server) {
    host.routes().add(
        Method::post, "/oauth/token", AuthRequirement::none,
        RouteAccess::public_route("the authorization code with its PKCE verifier, or the refresh "
                                  "token, is the credential"),
        [server](Request& request) {
            std::optional<std::map<std::string, std::string>> fields;
            try {
                fields = form_of(request);
            } catch (const HttpError& error) {
                return oauth_error(400, "invalid_request", error.what());
            }
            if (!fields) {
                return oauth_error(400, "invalid_request",
                                   "Send application/x-www-form-urlencoded");
            }
            auto answer = server->token(*fields);
            if (const auto* error = std::get_if<OAuthError>(&answer)) {
                return oauth_error(error->status, error->error, error->description);
            }
            const auto& tokens = std::get<TokenSet>(answer);
            return no_store(Response::json(Json{{"access_token", tokens.access_token},
                                                {"token_type", "Bearer"},
                                                {"expires_in", tokens.expires_in_s},
                                                {"refresh_token", tokens.refresh_token},
                                                {"scope", tokens.scope}}));
        },
        RouteOptions{BodyMode::form});

    host.routes().add(
        Method::post, "/oauth/revoke", AuthRequirement::none,
        RouteAccess::public_route("the token in the body is the credential"),
        [server](Request& request) {
            std::optional<std::map<std::string, std::string>> fields;
            try {
                fields = form_of(request);
            } catch (const HttpError& error) {
                return oauth_error(400, "invalid_request", error.what());
            }
            if (!fields || !fields->contains("token")) {
                return oauth_error(400, "invalid_request", "token is required");
            }
            const auto client = fields->find("client_id");
            server->revoke(fields->at("token"), client == fields->end() ? "" : client->second);
            return no_store(Response::json(Json::object()));
        },
        RouteOptions{BodyMode::form});
}

}  // namespace loupe::oauth
