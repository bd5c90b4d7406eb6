#pragma once

#include <memory>
#include <vector>

#include "loupe/host.hpp"
#include "loupe/web/session_service.hpp"
#include "saml/saml_service_provider.hpp"

namespace loupe::sso {

/// GET /_loupe/sso/saml/{provider}/metadata, .../start, POST .../acs and GET .../finish.
void add_saml_routes(Host& host, const web::BrowserSessions& sessions,
                     std::vector<std::shared_ptr<SamlServiceProvider>> providers);

/// The providers' entries for the sign-in page's list ({id, name, startUrl}).
Json saml_provider_entries(const std::vector<std::shared_ptr<SamlServiceProvider>>& providers);

}  // namespace loupe::sso
