#pragma once
// What a provider's webhook delivery says about a pull request: only merges matter to Loupe
// (a merged pull request's builds count as approved baselines). GitHub sends `pull_request`
// events (action `closed` with `pull_request.merged`), GitLab `Merge Request Hook`s
// (`object_attributes.action` `merge`, or state `merged`).

#include <cstdint>
#include <optional>
#include <string>

#include "loupe/git/git_providers.hpp"
#include "loupe/json.hpp"

namespace loupe::git {

struct MergedPullRequest {
    Provider provider = Provider::github;
    std::string repository;  ///< owner/name, or the GitLab project's full path
    int64_t number = 0;      ///< GitHub's pull request number, GitLab's merge request iid
    int64_t merged_at = 0;   ///< ms since the epoch
};

/// The merge a GitHub delivery of event `event` (its X-GitHub-Event) reports, if any; `now`
/// stands in for a missing or unreadable merged_at.
std::optional<MergedPullRequest> github_merge_of(const std::string& event, const Json& payload,
                                                 int64_t now);
/// The merge a GitLab delivery reports, if any.
std::optional<MergedPullRequest> gitlab_merge_of(const Json& payload, int64_t now);

struct OpenedPullRequest {
    Provider provider = Provider::github;
    std::string repository;
    int64_t number = 0;
    std::string branch;  ///< its head (source) branch
};

/// The pull request a GitHub delivery reports opened (or reopened, or made ready for review),
/// if any; a pull request from a fork is none (its branch is not the repository's).
std::optional<OpenedPullRequest> github_opened_of(const std::string& event, const Json& payload);
/// The merge request a GitLab delivery reports opened or reopened, if any (not from a fork).
std::optional<OpenedPullRequest> gitlab_opened_of(const Json& payload);

/// Whether GitHub's X-Hub-Signature-256 (`sha256=<hex HMAC-SHA256 of the body>`) was made with
/// `secret`; compared in constant time.
bool github_signature_fits(const std::string& secret, const std::string& body,
                           const std::string& signature);

}  // namespace loupe::git
