#pragma once
// The clients Loupe's authorization server knows and what an authorization request from one
// of them must hold. The official Argos CLI is the one client: `argos-cli`, a public client
// (no secret; PKCE with S256 is required) whose redirect URI is a loopback address on any port
// (RFC 8252: `http://127.0.0.1:<port>/callback`, `http://[::1]:<port>/callback` or
// `http://localhost:<port>/callback`), asking for scopes among the ones below.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace loupe::oauth {

struct OAuthClient {
    std::string id;
    std::string name;
};

struct ScopeInfo {
    std::string name;
    std::string description;
};

/// The client with this id; nullopt when unknown.
std::optional<OAuthClient> find_client(std::string_view client_id);

/// Every scope a client may ask for, with what it lets the client do.
const std::vector<ScopeInfo>& known_scopes();

/// Whether `redirect_uri` is one this client may be sent back to.
bool is_allowed_redirect(const OAuthClient& client, std::string_view redirect_uri);

/// An authorization request (the query of /oauth/authorize) as the consent page sends it on.
struct AuthorizationRequest {
    std::string client_id;
    std::string redirect_uri;
    std::string response_type;
    std::string scope;
    std::string state;
    std::string code_challenge;
    std::string code_challenge_method;
};

/// What is wrong with a request. `redirectable` is false when the client or its redirect URI
/// is not trusted: the error is then shown to the person, never sent to that URI.
struct RequestProblem {
    std::string error;  ///< the OAuth error code: invalid_request, invalid_scope, ...
    std::string description;
    bool redirectable = true;
};

/// The scopes the request asks for (known, without repeats), or what is wrong with it.
std::optional<RequestProblem> check_request(const AuthorizationRequest& request,
                                            std::vector<std::string>& scopes);

}  // namespace loupe::oauth
