// The auth plugin: who may see and create projects. Token resolution itself is in the core.
#include "loupe/plugin.hpp"

#include "loupe/host.hpp"
#include "loupe/http/api_description.hpp"
#include "routes/routes.hpp"

namespace {

void install(loupe::Host& host) {
    loupe::describe_api(host.services(), loupe::embedded_api_description());
    loupe::auth::add_get_token_project(host);
    loupe::auth::add_get_project(host);
    loupe::auth::add_create_project(host);
    loupe::auth::add_list_account_projects(host);
}

}  // namespace

LOUPE_PLUGIN("auth", LOUPE_VERSION, LOUPE_REQUIRES(), install)
