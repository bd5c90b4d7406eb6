// The analytics plugin: account analytics of builds and screenshots per day, week or month,
// and a project's flakiest tests. It owns no table: it reads through the builds plugin's
// analytics service.
#include "loupe/plugin.hpp"

#include "loupe/builds/build_analytics.hpp"
#include "loupe/host.hpp"
#include "loupe/http/api_description.hpp"
#include "routes/routes.hpp"

namespace {

void install(loupe::Host& host) {
    loupe::describe_api(host.services(), loupe::embedded_api_description());
    auto& builds = host.services().require<loupe::builds::BuildAnalytics>();
    loupe::analytics::add_account_analytics(host, builds);
    loupe::analytics::add_flaky_tests(host, builds);
}

}  // namespace

LOUPE_PLUGIN("analytics", LOUPE_VERSION, LOUPE_REQUIRES("builds"), install)
