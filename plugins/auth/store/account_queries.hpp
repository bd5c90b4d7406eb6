#pragma once
// What the auth plugin's stores share: the team-only rule and the LIKE pattern of a search.

#include <string>

#include "loupe/auth/identity.hpp"

namespace loupe::auth {

/// HttpError 400 "This account is not a team." unless `account` is a team.
void require_team(const Account& account);

/// `text` as a LIKE pattern matching it anywhere, its wildcards escaped with '\' (use ESCAPE
/// '\'); ASCII letters lowered, as LOWER() lowers the column it is compared with.
std::string contains_pattern(const std::string& text);

}  // namespace loupe::auth
