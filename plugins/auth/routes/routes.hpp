#pragma once
// The auth plugin's endpoints (GET /project, GET /me, GET and POST projects, account projects, the
// account and its members), one per file.

#include "loupe/host.hpp"
#include "store/contributor_store.hpp"
#include "store/invite_store.hpp"
#include "store/team_store.hpp"

namespace loupe::auth {

void add_get_token_project(Host& host);              ///< GET /project
void add_get_me(Host& host);                         ///< GET /me
void add_get_project(Host& host);                    ///< GET /projects/{owner}/{project}
void add_update_project(Host& host);                 ///< PATCH /projects/{owner}/{project}
void add_transfer_project(Host& host);               ///< POST /projects/{owner}/{project}/transfer
void add_delete_project(Host& host);                 ///< DELETE /_loupe/projects/{owner}/{project}
void add_create_project(Host& host);                 ///< POST /projects
void add_list_account_projects(Host& host);          ///< GET /accounts/{accountSlug}/projects
void add_get_account(Host& host, TeamStore& teams);  ///< GET /accounts/{accountSlug}
void add_update_account(Host& host, TeamStore& teams);  ///< PATCH /accounts/{accountSlug}
void add_list_account_members(Host& host,
                              TeamStore& teams);  ///< GET /accounts/{accountSlug}/members
/// PATCH /accounts/{accountSlug}/members/{userId}
void add_set_account_member_level(Host& host, TeamStore& teams);
/// DELETE /accounts/{accountSlug}/members/{userId}
void add_remove_account_member(Host& host, TeamStore& teams);
/// GET and POST /accounts/{accountSlug}/invites, DELETE .../invites/{inviteId}, POST
/// .../invite-link/reset
void add_account_invites(Host& host, InviteStore& invites);
/// GET and POST /accounts/{accountSlug}/domains, DELETE .../domains/{domain}
void add_account_domains(Host& host, InviteStore& invites);
/// GET /_loupe/invites/{token} and POST /_loupe/invites/{token}/accept (the join page's calls)
void add_join_team(Host& host, InviteStore& invites);
/// GET /projects/{owner}/{project}/contributors, PUT and DELETE .../contributors/{userId}
void add_project_contributors(Host& host, ContributorStore& contributors);

/// GET and POST /_loupe/tokens, DELETE /_loupe/tokens/{tokenId}: the caller's own personal
/// access tokens
void add_personal_tokens(Host& host);

/// GET /_loupe/accounts/{accountSlug}/audit: the team's administration trail (admins)
void add_account_audit(Host& host);

/// GET and POST /_loupe/projects/{owner}/{project}/tokens, DELETE …/tokens/{tokenId}: the
/// project's tokens, for its admins
void add_project_tokens(Host& host);

}  // namespace loupe::auth
