#pragma once

#include <memory>
#include <vector>

#include "loupe/host.hpp"
#include "loupe/web/session_service.hpp"
#include "oidc/oidc_client.hpp"

namespace loupe::sso {

/// GET /_loupe/sso/providers, GET /_loupe/sso/oidc/{provider}/start and .../callback.
void add_oidc_routes(Host& host, const web::BrowserSessions& sessions,
                     std::vector<std::shared_ptr<SignInClient>> clients);

}  // namespace loupe::sso
