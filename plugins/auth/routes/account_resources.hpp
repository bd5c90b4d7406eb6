#pragma once
// The resources of team administration: AccountDetails (an account with its usage) and
// TeamMember, as the official API client's schema spells them.

#include "loupe/host.hpp"
#include "store/team_store.hpp"

namespace loupe::auth {

/// Loupe has no plans nor billing periods: the period it reports is the last 30 days, ending
/// now; `plan` is null and nothing is included or charged.
constexpr int64_t usage_period_ms = 30LL * 24 * 60 * 60 * 1000;

/// {id, user: {id, slug, name}, level}; `user.id` is the member's personal account id.
Json team_member_json(const TeamMember& member);

/// AccountDetails of `account`, with the builds and screenshots its projects received in the
/// period (counted by the builds plugin; zero when it is not enabled).
Json account_details_json(Host& host, TeamStore& teams, const Account& account);

/// The path's {userId}: the member's personal account id (decimal digits), else 400 with
/// Argos's "Invalid user account ID.".
int64_t member_account_id_of(Request& request);

}  // namespace loupe::auth
