#pragma once
// Who may view a site. A public site is open to anyone; a private one only through a private
// link's key (store/links.hpp), until the link expires or is revoked. Nothing else grants
// access: sites are served where no cookie or token of the review page is read.

#include "site/site_catalog.hpp"

namespace loupe::deployments {

/// True when the site is served to anyone: the project's `auth` setting, where `project`
/// follows the project's visibility and `domain-private` opens only the production alias.
bool is_public_site(const ResolvedSite& site);

/// True when the request may see the site: it is public, or was reached through a link that
/// has not expired at `now_ms`.
bool may_view(const ResolvedSite& site, int64_t now_ms);

}  // namespace loupe::deployments
