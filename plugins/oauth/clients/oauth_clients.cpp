#include "clients/oauth_clients.hpp"

#include <algorithm>

#include "loupe/text/strings.hpp"

namespace loupe::oauth {
namespace {

/// `http://<loopback host>:<port>/callback`, the port 1..65535.
bool is_loopback_callback(std::string_view uri) {
    for (const std::string_view host :
         {"http://127.0.0.1:", "http://[::1]:", "http://localhost:"}) {
        if (!uri.starts_with(host)) {
            continue;
        }
        std::string_view rest = uri.substr(host.size());
        const auto slash = rest.find('/');
        const std::string_view port = rest.substr(0, slash);
        if (slash == std::string_view::npos || port.empty() || port.size() > 5 ||
            !std::ranges::all_of(port, [](char c) { return c >= '0' && c <= '9'; })) {
            return false;
        }
        const int number = std::stoi(std::string(port));
        return number > 0 && number <= 65535 && rest.substr(slash) == "/callback";
    }
    return false;
}

}  // namespace

std::optional<OAuthClient> find_client(std::string_view client_id) {
    if (client_id == "argos-cli") {
        return OAuthClient{"argos-cli", "Argos CLI"};
    }
    return std::nullopt;
}

const std::vector<ScopeInfo>& known_scopes() {
    static const std::vector<ScopeInfo> scopes{
        {"profile", "See your name and the teams you belong to"},
        {"projects:read", "See your projects and their builds"},
        {"projects:write", "Create and change projects"},
        {"builds:write", "Send builds"},
        {"reviews:write", "Approve builds and request changes"},
        {"comments:read", "Read comments"},
        {"comments:write", "Write, edit and resolve comments"},
        {"media:read", "See shared media"},
        {"media:write", "Upload and change shared media"},
        {"account:admin", "Administer your teams"},
    };
    return scopes;
}

bool is_allowed_redirect(const OAuthClient& client, std::string_view redirect_uri) {
    return client.id == "argos-cli" && is_loopback_callback(redirect_uri);
}

std::optional<RequestProblem> check_request(const AuthorizationRequest& request,
                                            std::vector<std::string>& scopes) {
    const auto client = find_client(request.client_id);
    if (!client) {
        return RequestProblem{"invalid_client", "Unknown application \"" + request.client_id + "\"",
                              false};
    }
    if (!is_allowed_redirect(*client, request.redirect_uri)) {
        return RequestProblem{"invalid_request",
                              "This application may not be sent to " + request.redirect_uri, false};
    }
    if (request.response_type != "code") {
        return RequestProblem{"unsupported_response_type", "response_type must be code"};
    }
    if (request.code_challenge_method != "S256" || request.code_challenge.size() != 43) {
        return RequestProblem{"invalid_request",
                              "A PKCE code_challenge with code_challenge_method S256 is required"};
    }
    scopes.clear();
    for (const auto word : split_trimmed(request.scope, ' ')) {
        const bool known = std::ranges::any_of(
            known_scopes(), [&](const ScopeInfo& info) { return info.name == word; });
        if (!known) {
            return RequestProblem{"invalid_scope", "Unknown scope \"" + std::string(word) + "\""};
        }
        if (std::ranges::find(scopes, word) == scopes.end()) {
            scopes.emplace_back(word);
        }
    }
    if (scopes.empty()) {
        return RequestProblem{"invalid_scope", "No scope requested"};
    }
    return std::nullopt;
}

}  // namespace loupe::oauth
