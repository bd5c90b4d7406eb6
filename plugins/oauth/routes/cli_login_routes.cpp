// `argos login` of CLI 4.x, which predates the OAuth endpoints: it opens
// `/auth/cli?port=&state=&pkce=` in the browser and, once its loopback server received the code,
// posts `{code, code_verifier}` to `/auth/cli/token` for one API token. The browser half is the
// same consent page as /oauth/authorize (client `argos-cli`, redirect URI
// `http://127.0.0.1:<port>/callback`, PKCE S256), so the person approves or denies exactly as for
// the latest CLI; the exchange follows the code's rules (one use, one minute, the verifier).
#include <algorithm>

#include "loupe/http/http_client.hpp"
#include "loupe/http/http_error.hpp"
#include "routes/oauth_routes.hpp"

namespace loupe::oauth {
namespace {

// What CLI 4.x can do once signed in: the scopes the latest CLI asks for (that CLI sends none).
constexpr const char* cli4_scopes =
    "profile projects:read projects:write reviews:write comments:read comments:write media:read "
    "media:write";

/// The loopback port CLI 4.x listens on, 1..65535; throws 400 otherwise.
int callback_port(const Request& request) {
    const auto text = request.query("port").value_or("");
    if (text.empty() || text.size() > 5 ||
        !std::ranges::all_of(text, [](char c) { return c >= '0' && c <= '9'; })) {
        throw HttpError::bad_request("port must be the CLI's loopback port");
    }
    const int port = std::stoi(text);
    if (port < 1 || port > 65535) {
        throw HttpError::bad_request("port must be the CLI's loopback port");
    }
    return port;
}

std::string string_field(const Json& body, const char* name) {
    return body.is_object() && body.contains(name) && body[name].is_string()
               ? body[name].get<std::string>()
               : std::string();
}

}  // namespace

void add_cli_login_routes(Host& host, std::shared_ptr<AuthorizationServer> server) {
    host.routes().add(
        Method::get, "/auth/cli", AuthRequirement::none,
        RouteAccess::public_route("sends the browser to the consent page, which requires "
                                  "signing in"),
        [](Request& request) {
            const std::string redirect_uri =
                "http://127.0.0.1:" + std::to_string(callback_port(request)) + "/callback";
            const auto state = request.query("state").value_or("");
            const auto pkce = request.query("pkce").value_or("");
            // The consent page checks the rest (the challenge's form, the client, the scopes).
            Response response;
            response.status = 302;
            response.headers.emplace_back(
                "Location",
                "/_loupe/oauth/authorize?client_id=argos-cli&response_type=code&redirect_uri=" +
                    url_query_component(redirect_uri) + "&scope=" +
                    url_query_component(cli4_scopes) + "&state=" + url_query_component(state) +
                    "&code_challenge=" + url_query_component(pkce) + "&code_challenge_method=S256");
            response.headers.emplace_back("Cache-Control", "no-store");
            return response;
        });

    host.routes().add(
        Method::post, "/auth/cli/token", AuthRequirement::none,
        RouteAccess::public_route("the authorization code with its PKCE verifier is the "
                                  "credential"),
        [server](Request& request) {
            const Json& body = request.json();
            auto answer = server->exchange_cli_code(string_field(body, "code"),
                                                    string_field(body, "code_verifier"));
            if (const auto* error = std::get_if<OAuthError>(&answer)) {
                if (error->error == "invalid_request") {
                    throw HttpError::bad_request(error->description);
                }
                throw HttpError::unauthorized(error->description);
            }
            return Response::json(Json{{"token", std::get<std::string>(answer)}})
                .with_header("Cache-Control", "no-store");
        });
}

}  // namespace loupe::oauth
