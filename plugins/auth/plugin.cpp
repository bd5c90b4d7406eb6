// The auth plugin: who may see and create projects, and the administration of accounts and
// their members. Token resolution itself is in the core.
#include "loupe/plugin.hpp"

#include "loupe/auth/events.hpp"
#include "loupe/host.hpp"
#include "loupe/http/api_description.hpp"
#include "routes/routes.hpp"
#include "store/invite_mail_link_store.hpp"

namespace {

void install(loupe::Host& host) {
    loupe::describe_api(host.services(), loupe::embedded_api_description());
    loupe::auth::add_get_token_project(host);
    loupe::auth::add_get_me(host);
    loupe::auth::add_personal_tokens(host);
    loupe::auth::add_get_project(host);
    loupe::auth::add_update_project(host);
    loupe::auth::add_transfer_project(host);
    loupe::auth::add_delete_project(host);
    loupe::auth::add_project_tokens(host);
    loupe::auth::add_create_project(host);
    loupe::auth::add_list_account_projects(host);
    loupe::auth::add_team_migrations(host.migrations());
    auto* const teams = &host.make<loupe::auth::TeamStore>(host.db());
    loupe::auth::add_get_account(host, *teams);
    loupe::auth::add_update_account(host, *teams);
    loupe::auth::add_list_account_members(host, *teams);
    loupe::auth::add_set_account_member_level(host, *teams);
    loupe::auth::add_remove_account_member(host, *teams);
    loupe::auth::add_account_audit(host);
    loupe::auth::add_invite_migrations(host.migrations());
    loupe::auth::add_invite_mail_migrations(host.migrations());
    host.events().publishes<loupe::auth::TeamInvited>();
    static loupe::auth::InviteStore* const invites =
        new loupe::auth::InviteStore(host.db(), host.identity(), host.events());
    host.services().provide<loupe::auth::TeamDomains>(*invites);
    static loupe::auth::InviteMailLinkStore* const mail_links =
        new loupe::auth::InviteMailLinkStore(host);
    host.services().provide<loupe::auth::InviteMailLinks>(*mail_links);
    loupe::auth::add_account_invites(host, *invites);
    loupe::auth::add_account_domains(host, *invites);
    loupe::auth::add_join_team(host, *invites);
    static loupe::auth::ContributorStore* const contributors =
        new loupe::auth::ContributorStore(host.db());
    loupe::auth::add_project_contributors(host, *contributors);
}

}  // namespace

LOUPE_PLUGIN("auth", LOUPE_VERSION, LOUPE_REQUIRES(), install)
