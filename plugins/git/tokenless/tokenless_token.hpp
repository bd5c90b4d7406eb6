#pragma once
// Tokenless bearer tokens: a marker, then standard base64 of a UTF-8 JSON object.
//
//   tokenless-github-<base64 {"owner", "repository", "jobId", "runId", "project"?}>
//     what the Argos CLI builds on GitHub Actions when ARGOS_TOKEN is not set; `project` (the
//     Loupe project as "account/name") picks one of several projects linked to the repository.
//   tokenless-gitlab-<base64 {"gitlabProject", "jobToken", "project"?}>
//     built by a GitLab CI job: its project path ($CI_PROJECT_PATH) and job token
//     ($CI_JOB_TOKEN). Other keys are ignored in both.

#include <cstddef>
#include <optional>
#include <string>

namespace loupe::git {

inline constexpr const char* github_token_marker = "tokenless-github-";
inline constexpr const char* gitlab_token_marker = "tokenless-gitlab-";
/// Longer tokens are refused before any decoding.
inline constexpr std::size_t max_tokenless_token_length = 8192;

struct GitHubTokenlessToken {
    std::string owner;
    std::string repository;
    std::string job_id;
    std::string run_id;
    std::optional<std::string> project;
};

struct GitLabTokenlessToken {
    std::string gitlab_project;
    std::string job_token;
    std::optional<std::string> project;
};

/// nullopt when the token is not a well-formed token of that kind.
std::optional<GitHubTokenlessToken> decode_github_token(const std::string& token);
std::optional<GitLabTokenlessToken> decode_gitlab_token(const std::string& token);

}  // namespace loupe::git
