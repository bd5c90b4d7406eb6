#pragma once

#include "loupe/builds/build_analytics.hpp"
#include "loupe/host.hpp"

namespace loupe::analytics {

/// GET /accounts/{accountSlug}/analytics
void add_account_analytics(Host& host, builds::BuildAnalytics& builds);
/// GET /projects/{owner}/{project}/analytics/flaky
void add_flaky_tests(Host& host, builds::BuildAnalytics& builds);

}  // namespace loupe::analytics
