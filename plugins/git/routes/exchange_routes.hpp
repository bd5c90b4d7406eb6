#pragma once

#include "loupe/host.hpp"
#include "tokenless/tokenless_auth.hpp"

namespace loupe::git {

/// POST /auth/github-actions/tokenless/exchange and POST /auth/gitlab-ci/tokenless/exchange:
/// body {tokenlessToken, commit, branch} → {token, expiresAt}. No authorization header.
void add_exchange_routes(Host& host, TokenlessAuth& tokenless);

}  // namespace loupe::git
