// Sign-in and sign-out. A personal access token (sent once, as the API expects it, in the
// Authorization header) or a one-time link token is exchanged for an HttpOnly session cookie;
// the page then reads its CSRF token from GET /_loupe/session and sends it on every write.
#include "loupe/http/http_error.hpp"
#include "routes/routes.hpp"

namespace loupe::web {
namespace {

Json session_json(Host& host, const WebSettings& settings,
                  const std::optional<CurrentSession>& current) {
    Json body{{"plugins", settings.enabled_plugins},
              {"publicUrl", host.public_url()},
              {"traceViewerUrl", settings.trace_viewer_url}};
    if (!current) {
        body["user"] = nullptr;
        return body;
    }
    body["user"] = host.identity().user_ref(current->user_id);
    Json accounts = Json::array();
    for (const auto& account : current->principal.scope) {
        accounts.push_back(account.slug);
    }
    body["accounts"] = std::move(accounts);
    body["csrfToken"] = csrf_token(current->token);
    return body;
}

Response no_store(Response response) {
    return response.with_header("Cache-Control", "no-store");
}

std::string origin_of(const std::string& url) {
    const auto scheme = url.find("://");
    if (scheme == std::string::npos) {
        return url;
    }
    const auto path = url.find('/', scheme + 3);
    return path == std::string::npos ? url : url.substr(0, path);
}

/// Sign-in answers with a cookie, so a cross-site page must not be able to trigger it (it would
/// sign the visitor in as someone else): a browser's Origin must be this server's.
void require_same_origin(Host& host, const Request& request) {
    const auto origin = request.header("Origin");
    if (!origin) {
        return;
    }
    const auto host_header = request.header("Host").value_or("");
    if (*origin == origin_of(host.public_url()) || *origin == "http://" + host_header ||
        *origin == "https://" + host_header) {
        return;
    }
    throw HttpError::forbidden("Cross-site sign-in refused");
}

Response signed_in(Host& host, SessionManager& sessions, const std::string& token, int64_t user_id,
                   Principal principal) {
    CurrentSession current{token, user_id, std::move(principal)};
    return no_store(
        Response::json(session_json(host, sessions.settings(), current), 201)
            .with_header("Set-Cookie", session_cookie(token, sessions.cookie_options())));
}

}  // namespace

void add_session_routes(Host& host, std::shared_ptr<SessionManager> sessions) {
    host.routes().add(
        Method::get, "/_loupe/session", AuthRequirement::none,
        RouteAccess::public_route("answers who the session cookie belongs to (null without "
                                  "one): the caller's own identity only"),
        [&host, sessions](Request& request) {
            return no_store(Response::json(
                session_json(host, sessions->settings(), sessions->current(request))));
        });

    // The PAT arrives in the Authorization header; a request signed in by cookie only cannot
    // make another session.
    host.routes().add(
        Method::post, "/_loupe/session", AuthRequirement::personal_token, RouteAccess::signed_in(),
        [&host, sessions](Request& request) {
            require_same_origin(host, request);
            const Principal& principal = request.principal();
            if (principal.token_id == 0) {
                throw HttpError::unauthorized("Sign in with a personal access token");
            }
            const auto agent = request.header("User-Agent").value_or("");
            const std::string token = host.db().transaction([&](soci::session& session) {
                return sessions->create(session, principal.user_id, principal.token_id, agent);
            });
            return signed_in(host, *sessions, token, principal.user_id, principal);
        });

    host.routes().add_validated(
        Method::post, "/_loupe/session/link", AuthRequirement::none,
        RouteAccess::public_route("the one-time link token in the body is the credential"),
        [](Request& request) {
            const auto type = request.header("Content-Type").value_or("");
            if (!type.starts_with("application/json")) {
                throw HttpError::bad_request("Send the link token as JSON");
            }
            const Json& body = request.json();
            if (!body.is_object() || !body.contains("token") || !body["token"].is_string()) {
                throw HttpError::invalid(
                    {"token is " +
                     expected_message("string", body.is_object() && body.contains("token")
                                                    ? &body["token"]
                                                    : nullptr)});
            }
            return body["token"].get<std::string>();
        },
        [&host, sessions](Request& request, const std::string& link_token) {
            require_same_origin(host, request);
            const auto agent = request.header("User-Agent").value_or("");
            auto created = host.db().transaction([&](soci::session& session) {
                std::optional<std::pair<int64_t, std::string>> result;
                if (auto user_id = sessions->consume_login_link(session, link_token)) {
                    result.emplace(*user_id,
                                   sessions->create(session, *user_id, std::nullopt, agent));
                }
                return result;
            });
            if (!created) {
                throw HttpError::unauthorized(
                    "This sign-in link is invalid, expired or already used. Ask for a new one "
                    "(loupe admin user login-link --user <you>).");
            }
            auto principal = host.identity().user_principal(created->first, std::nullopt);
            if (!principal) {
                throw HttpError::unauthorized("This user belongs to no account");
            }
            return signed_in(host, *sessions, created->second, created->first,
                             std::move(*principal));
        });

    host.routes().add(
        Method::del, "/_loupe/session", AuthRequirement::none,
        RouteAccess::public_route("ends the caller's own session (its cookie and CSRF token)"),
        [sessions](Request& request) {
            const auto token = sessions->cookie_token(request);
            if (token) {
                const auto presented = request.header(std::string(csrf_header_name));
                if (is_token_format(*token) && (!presented || !csrf_matches(*token, *presented))) {
                    throw HttpError::forbidden("Missing or invalid CSRF token");
                }
                sessions->revoke(*token);
            }
            return no_store(Response::no_content().with_header(
                "Set-Cookie", cleared_session_cookie(sessions->cookie_options())));
        });
}

}  // namespace loupe::web
