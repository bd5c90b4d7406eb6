#pragma once
// Which Loupe project a tokenless caller means: among the projects linked to its repository,
// the one its token names ("account/name"), else the only one.

#include <optional>
#include <string>
#include <vector>

#include "loupe/auth/identity.hpp"
#include "loupe/git/git_providers.hpp"

namespace loupe::git {

struct LinkedProject {
    Project project;
    RepositoryLink link;
};

struct ChoiceMessages {
    std::string slug_not_found;  ///< 400 when the named project is not among the linked ones
    std::string multiple;        ///< 400 when no name is given and several are linked
};

/// nullopt when no (existing) project is linked; throws HttpError 400 as `messages` say.
std::optional<LinkedProject> choose_linked_project(Identity& identity,
                                                   const std::vector<RepositoryLink>& links,
                                                   const std::optional<std::string>& slug,
                                                   const ChoiceMessages& messages);

/// The project principal a verified tokenless caller acts as.
Principal tokenless_principal(const Project& project);

/// What a GitHub workflow run vouches for: its head commit; its head branch, except for a
/// merge-queue run (whose builds name the pull request's branch, which the run does not
/// carry); and whether its head repository is a fork.
RunBinding github_run_binding(const WorkflowRun& run);

/// What a GitLab CI job vouches for: its commit; its branch, except for a merge-request
/// pipeline (refs/merge-requests/<iid>/head names no branch), which, like a fork, may not claim
/// the project's own branches.
RunBinding gitlab_job_binding(const GitLabJob& job);

/// Binds a tokenless principal to what its run vouches for.
void bind_to_run(Principal& principal, const RunBinding& binding);

}  // namespace loupe::git
