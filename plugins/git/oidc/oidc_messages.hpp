#pragma once
// The wording of CI OIDC exchange refusals. GitHub's follow Argos (the CLI prints them); the
// GitLab ones say the same of a GitLab project. None repeats the ID token.

namespace loupe::git::oidc_messages {

inline const char* const invalid_github_token = "Invalid GitHub Actions OIDC token.";
inline const char* const github_unavailable =
    "Unable to verify GitHub Actions OIDC token. Please retry.";
inline const char* const github_repository_mismatch =
    "GitHub Actions OIDC token does not match repository.";
inline const char* const no_github_project =
    "No Argos project is linked to this GitHub repository.";
inline const char* const multiple_github_projects =
    "Multiple Argos projects are linked to this GitHub repository.";
inline const char* const github_disabled =
    "GitHub Actions OIDC authentication is not enabled for this project. Enable it in the project "
    "settings.";
inline const char* const github_commit_mismatch =
    "GitHub Actions OIDC token does not match commit.";

inline const char* const invalid_gitlab_token = "Invalid GitLab CI OIDC token.";
inline const char* const gitlab_unavailable =
    "Unable to verify GitLab CI OIDC token. Please retry.";
inline const char* const no_gitlab_project = "No project is linked to this GitLab project.";
inline const char* const multiple_gitlab_projects =
    "Multiple projects are linked to this GitLab project.";
inline const char* const gitlab_disabled =
    "GitLab CI OIDC authentication is not enabled for this project. Enable it in the project "
    "settings.";
inline const char* const gitlab_commit_mismatch = "GitLab CI OIDC token does not match commit.";

}  // namespace loupe::git::oidc_messages
