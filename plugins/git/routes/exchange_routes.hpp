#pragma once

#include "loupe/host.hpp"
#include "oidc/ci_oidc_exchange.hpp"
#include "tokenless/tokenless_auth.hpp"

namespace loupe::git {

/// POST /auth/github-actions/tokenless/exchange and POST /auth/gitlab-ci/tokenless/exchange:
/// body {tokenlessToken, commit, branch} → {token, expiresAt}. No authorization header.
void add_exchange_routes(Host& host, TokenlessAuth& tokenless);

/// POST /auth/github-actions/oidc/exchange and POST /auth/gitlab-ci/oidc/exchange: body
/// {oidcToken, repository?, commit?} (the Argos CLI also sends branch and pullRequestNumber,
/// which the token's own claims decide) → {token, expiresAt}. No authorization header.
void add_oidc_exchange_routes(Host& host, CiOidcExchange& oidc);

}  // namespace loupe::git
