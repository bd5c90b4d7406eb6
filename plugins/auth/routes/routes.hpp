#pragma once
// The auth plugin's endpoints (GET /project, GET and POST projects, account projects), one
// per file.

#include "loupe/host.hpp"

namespace loupe::auth {

void add_get_token_project(Host& host);      ///< GET /project
void add_get_project(Host& host);            ///< GET /projects/{owner}/{project}
void add_create_project(Host& host);         ///< POST /projects
void add_list_account_projects(Host& host);  ///< GET /accounts/{accountSlug}/projects

}  // namespace loupe::auth
