#pragma once
// The Argos wording of authentication and access refusals, shared by the
// authenticator and the identity store so that both answer exactly alike.

#include <string_view>

namespace loupe::auth_messages {

inline constexpr std::string_view missing_header = "Authorization header is missing";
inline constexpr std::string_view access_token_not_found = "Access token not found";
inline constexpr std::string_view personal_token_expired = "Personal access token has expired";
inline constexpr std::string_view no_valid_scope =
    "This token has no valid scope, probably because you are not anymore in the team that was "
    "in the scope, please generate a new one.";
inline constexpr std::string_view short_lived_invalid =
    "Short-lived project token has expired or is invalid.";
inline constexpr std::string_view project_not_found_start =
    "Project not found in Argos. If the issue persists, verify your token. (token: \"";
inline constexpr std::string_view project_not_found_end = "\").";
inline constexpr std::string_view requires_personal_token =
    "This endpoint requires a personal access token. See https://argos-ci.com/docs for details.";
inline constexpr std::string_view requires_project_token =
    "This endpoint requires a project token. See https://argos-ci.com/docs for details.";
inline constexpr std::string_view no_account_access =
    "You do not have access to this account. Check that your personal access token is scoped "
    "to it.";

}  // namespace loupe::auth_messages
