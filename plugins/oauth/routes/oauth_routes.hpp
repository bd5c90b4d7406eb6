#pragma once

#include <memory>

#include "authorization_server.hpp"
#include "loupe/host.hpp"

namespace loupe::oauth {

/// GET /oauth/authorize (to the consent page), GET /_loupe/oauth/request and POST
/// /_loupe/oauth/decision (the consent page's calls), GET /auth/cli/success.
void add_consent_routes(Host& host, std::shared_ptr<AuthorizationServer> server);

/// GET /auth/cli (to the consent page) and POST /auth/cli/token: CLI 4.x's `argos login`.
void add_cli_login_routes(Host& host, std::shared_ptr<AuthorizationServer> server);

/// GET /_loupe/oauth/grants and DELETE /_loupe/oauth/grants/{grantId}: the person's own grants.
void add_grant_routes(Host& host);

/// POST /oauth/token and POST /oauth/revoke.
void add_token_routes(Host& host, std::shared_ptr<AuthorizationServer> server);

}  // namespace loupe::oauth
