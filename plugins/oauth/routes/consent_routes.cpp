// The browser half of `argos login`: the CLI opens /oauth/authorize; the person, signed in to
// the review page (or sent to sign in first), sees which application asks for what on the
// consent page and approves or denies; the answer goes back to the application's loopback
// redirect URI with a one-use code (or `error=access_denied`) and the request's `state`. A
// request whose client or redirect URI is not trusted is never redirected anywhere.
#include "clients/oauth_clients.hpp"
#include "loupe/http/http_client.hpp"
#include "loupe/http/http_error.hpp"
#include "routes/oauth_routes.hpp"

namespace loupe::oauth {
namespace {

AuthorizationRequest request_of_query(const Request& request) {
    const auto get = [&](std::string_view name) { return request.query(name).value_or(""); };
    return AuthorizationRequest{
        get("client_id"), get("redirect_uri"),   get("response_type"),        get("scope"),
        get("state"),     get("code_challenge"), get("code_challenge_method")};
}

AuthorizationRequest request_of_json(const Json& body) {
    const auto get = [&](const char* name) {
        return body.is_object() && body.contains(name) && body[name].is_string()
                   ? body[name].get<std::string>()
                   : std::string();
    };
    return AuthorizationRequest{
        get("client_id"), get("redirect_uri"),   get("response_type"),        get("scope"),
        get("state"),     get("code_challenge"), get("code_challenge_method")};
}

/// The application's redirect URI with `parameters` and the request's state.
std::string redirect_with(const AuthorizationRequest& request, const std::string& parameters) {
    return request.redirect_uri + "?" + parameters +
           (request.state.empty() ? "" : "&state=" + url_query_component(request.state));
}

/// 400 naming what is wrong; the page shows it and sends the browser nowhere.
[[noreturn]] void refuse(const RequestProblem& problem) {
    throw HttpError::bad_request(problem.description);
}

constexpr const char* success_page = R"HTML(<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Signed in - Loupe</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font:15px/1.5 system-ui,sans-serif;background:#f5f5f7;color:#1d1d24;display:flex;
align-items:center;justify-content:center;min-height:100vh;margin:0}main{background:#fff;
border:1px solid #e1e1e8;border-radius:8px;padding:28px 32px;max-width:380px}h1{font-size:18px;
margin:0 0 8px}p{margin:0;color:#5b5b6b}</style></head>
<body><main><h1>You are signed in to the Argos CLI</h1>
<p>Loupe gave the command line access to your account. You can close this tab and go back to
your terminal.</p></main></body></html>
)HTML";

}  // namespace

void add_consent_routes(Host& host, std::shared_ptr<AuthorizationServer> server) {
    // The consent page is the review page's: the browser signs in there first when it must.
    host.routes().add(Method::get, "/oauth/authorize", AuthRequirement::none,
                      RouteAccess::public_route("sends the browser to the consent page, which "
                                                "requires signing in"),
                      [](Request& request) {
                          Response response;
                          response.status = 302;
                          const auto query = request.query_string();
                          response.headers.emplace_back(
                              "Location", "/_loupe/oauth/authorize" +
                                              (query.empty() ? std::string() : "?" + query));
                          response.headers.emplace_back("Cache-Control", "no-store");
                          return response;
                      });

    host.routes().add(
        Method::get, "/_loupe/oauth/request", AuthRequirement::personal_token,
        RouteAccess::signed_in(), [&host](Request& request) {
            const auto asked = request_of_query(request);
            std::vector<std::string> scopes;
            if (const auto problem = check_request(asked, scopes)) {
                refuse(*problem);
            }
            Json scope_list = Json::array();
            for (const auto& info : known_scopes()) {
                if (std::ranges::find(scopes, info.name) != scopes.end()) {
                    scope_list.push_back({{"name", info.name}, {"description", info.description}});
                }
            }
            const auto client = find_client(asked.client_id);
            return Response::json(
                       Json{{"client", {{"id", client->id}, {"name", client->name}}},
                            {"scopes", std::move(scope_list)},
                            {"redirectUri", asked.redirect_uri},
                            {"user", host.identity().user_ref(request.principal().user_id)}})
                .with_header("Cache-Control", "no-store");
        });

    host.routes().add(
        Method::post, "/_loupe/oauth/decision", AuthRequirement::personal_token,
        RouteAccess::signed_in(), [server](Request& request) {
            // Only the review page's own session decides (its writes carry the CSRF token); a
            // personal access token is not a person at a consent screen.
            if (request.principal().token_id != 0) {
                throw HttpError::forbidden("Approve in the review page, signed in");
            }
            const Json& body = request.json();
            const auto asked = request_of_json(body);
            std::vector<std::string> scopes;
            if (const auto problem = check_request(asked, scopes)) {
                refuse(*problem);
            }
            const bool approved = body.is_object() && body.value("approve", Json()).is_boolean() &&
                                  body["approve"].get<bool>();
            if (!approved) {
                return Response::json(Json{
                    {"redirectUrl",
                     redirect_with(asked, "error=access_denied&error_description=" +
                                              url_query_component("The request was denied"))}});
            }
            std::string scope;
            for (const auto& name : scopes) {
                scope += (scope.empty() ? "" : " ") + name;
            }
            const auto code = server->approve(request.principal().user_id, asked.client_id, scope,
                                              asked.redirect_uri, asked.code_challenge);
            return Response::json(
                Json{{"redirectUrl", redirect_with(asked, "code=" + url_query_component(code))}});
        });

    host.routes().add(Method::get, "/auth/cli/success", AuthRequirement::none,
                      RouteAccess::public_route("a static page the CLI sends the browser to "
                                                "after signing in"),
                      [](Request&) {
                          return Response::text(success_page, "text/html; charset=utf-8")
                              .with_header("Content-Security-Policy",
                                           "default-src 'none'; style-src 'unsafe-inline'")
                              .with_header("X-Frame-Options", "DENY");
                      });
}

}  // namespace loupe::oauth
