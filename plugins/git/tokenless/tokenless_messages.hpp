#pragma once
// The wording of tokenless refusals. GitHub's follow Argos exactly (the CLI prints them); the
// GitLab ones never repeat the token, which carries the job's CI_JOB_TOKEN.

#include <string>

namespace loupe::git::tokenless_messages {

inline std::string invalid_token(const std::string& token) {
    return "Invalid token (token: \"" + token + "\")";
}
inline const char* const invalid_gitlab_token = "Invalid token (not a tokenless-gitlab- token)";

inline const char* const no_github_project =
    "No project found. Tokenless authentication requires an Argos project to be linked to your "
    "GitHub repository.";
inline const char* const no_gitlab_project =
    "No project found. Tokenless authentication requires a project to be linked to your GitLab "
    "project.";
/// What a direct bearer that resolves no project gets (the core's wording for tokenless).
inline std::string project_not_found(const std::string& bearer) {
    return "Project not found. Ensure a project exists in Argos (https://app.argos-ci.com) and "
           "restart your test after setup. Persisting issue? Consider adding 'ARGOS_TOKEN' to your "
           "CI environment variables. (token: \"" +
           bearer + "\").";
}
inline const char* const gitlab_project_not_found =
    "Project not found. Link a project to this GitLab project (loupe admin project link-gitlab) "
    "or set ARGOS_TOKEN.";

inline std::string github_slug_not_found(const std::string& slug, const std::string& token) {
    return "Project \"" + slug + "\" not found for GitHub repository (token: \"" + token +
           "\"). Ensure the project slug matches an Argos project linked to this repository.";
}
inline std::string gitlab_slug_not_found(const std::string& slug) {
    return "Project \"" + slug +
           "\" not found for GitLab project. Ensure the project slug matches a project linked to "
           "this GitLab project.";
}
inline std::string github_multiple_projects(const std::string& token) {
    return "Multiple projects found for GitHub repository (token: \"" + token +
           "\"). Please specify a project slug or a project token.";
}
inline const char* const gitlab_multiple_projects =
    "Multiple projects found for GitLab project. Please specify a project slug or a project "
    "token.";

inline const char* const app_not_installed =
    "The Argos GitHub App is no longer installed on this repository. Reinstall the app or use a "
    "project token.";
inline const char* const github_unavailable =
    "Unable to authenticate with GitHub for this installation. Please retry.";
inline const char* const gitlab_unavailable = "Unable to authenticate with GitLab. Please retry.";

inline std::string run_not_found(const std::string& token) {
    return "GitHub run not found (token: \"" + token + "\")";
}
inline std::string run_not_in_progress(const std::string& token) {
    return "GitHub job is not in progress (token: \"" + token + "\")";
}
inline const char* const gitlab_job_rejected =
    "GitLab did not accept the job token: the job is not running or the token is invalid.";
inline const char* const gitlab_job_not_running = "GitLab job is not running.";
inline const char* const gitlab_job_other_project =
    "GitLab job does not belong to the linked GitLab project.";

inline const char* const exchange_disabled =
    "Tokenless authentication is not enabled for this project.";
inline const char* const bearer_disabled =
    "Tokenless authentication is disabled for this project. Set the ARGOS_TOKEN environment "
    "variable to authenticate.";

inline const char* const github_commit_mismatch =
    "GitHub Actions workflow run does not match commit.";
inline const char* const github_branch_mismatch =
    "GitHub Actions workflow run does not match branch.";
inline const char* const gitlab_commit_mismatch = "GitLab CI job does not match commit.";
inline const char* const gitlab_branch_mismatch = "GitLab CI job does not match branch.";

}  // namespace loupe::git::tokenless_messages
