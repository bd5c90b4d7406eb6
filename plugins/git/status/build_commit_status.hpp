#pragma once
// The commit status of a build, from the Build resource as the API renders it: its
// `notification` gives the provider's state, the description, the context and the URL. The
// context gains `/<project name>` after "argos" when another project is linked to the same
// repository, so their statuses do not overwrite each other. A build without a notification
// (expired, error, aborted) gets a final status instead of staying pending on the pull request:
// GitHub `error`, GitLab `canceled` (expired, aborted) or `failed` (error).

#include <optional>
#include <string>

#include "loupe/git/git_providers.hpp"
#include "loupe/json.hpp"

namespace loupe::git {

/// GitHub takes descriptions up to 140 characters, GitLab up to 255.
inline constexpr std::size_t github_description_limit = 140;
inline constexpr std::size_t gitlab_description_limit = 255;

CommitStatus build_commit_status(const Json& build_resource, const std::string& sha,
                                 const std::string& build_name, Provider provider,
                                 const std::optional<std::string>& shared_with_project);

/// `text` cut to at most `limit` bytes without splitting a UTF-8 character ("…" marks a cut).
std::string truncate_utf8(const std::string& text, std::size_t limit);

}  // namespace loupe::git
