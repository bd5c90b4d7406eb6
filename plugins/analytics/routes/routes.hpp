#pragma once

#include "loupe/builds/builds_service.hpp"
#include "loupe/host.hpp"

namespace loupe::analytics {

/// GET /accounts/{accountSlug}/analytics
void add_account_analytics(Host& host, builds::BuildsService& builds);
/// GET /projects/{owner}/{project}/analytics/flaky
void add_flaky_tests(Host& host, builds::BuildsService& builds);

}  // namespace loupe::analytics
