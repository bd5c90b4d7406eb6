#pragma once

#include <memory>
#include <vector>

#include "loupe/host.hpp"
#include "loupe/web/session_service.hpp"
#include "oidc/oidc_client.hpp"

namespace loupe::sso {

/// GET /_loupe/sso/providers, GET /_loupe/sso/oidc/{provider}/start and .../callback.
/// `more_providers`: other sign-in providers' entries ({id, name, startUrl}) for the list.
void add_oidc_routes(Host& host, const web::BrowserSessions& sessions,
                     std::vector<std::shared_ptr<SignInClient>> clients,
                     Json more_providers = Json::array());

}  // namespace loupe::sso
