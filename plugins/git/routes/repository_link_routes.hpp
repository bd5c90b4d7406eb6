#pragma once

#include "loupe/git/git_providers.hpp"
#include "loupe/host.hpp"

namespace loupe::git {

/// GET, PUT and DELETE /_loupe/projects/{owner}/{project}/repository: the project's link to a
/// GitHub repository or GitLab project, from its settings page.
void add_repository_link_routes(Host& host, GitProviders& providers);

}  // namespace loupe::git
