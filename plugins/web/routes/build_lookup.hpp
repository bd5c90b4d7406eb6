#pragma once
// A build of {owner}/{project} through the builds plugin's service, for routes guarded by the
// project's `view` permission (RouteAccess::project), as the API's build routes are.

#include <cstdint>

#include "loupe/builds/builds_service.hpp"
#include "loupe/host.hpp"

namespace loupe::web {

struct BuildRef {
    Project project;
    builds::BuildSummary build;
};

/// Throws HttpError: 400 for a malformed build number, 401/404 as the API does, 503 when the
/// builds plugin offers no service.
BuildRef find_visible_build(Host& host, builds::BuildsService* service, const Request& request);

}  // namespace loupe::web
