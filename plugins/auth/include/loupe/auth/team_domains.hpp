#pragma once
// The email domains teams are open to, for plugins that sign people in with a verified address
// (an identity provider): a person whose address is on a team's domain joins that team at its
// default role. Look it up at install time with
// `host.services().find<loupe::auth::TeamDomains>()` (nullptr when the auth plugin is not
// enabled) and declare LOUPE_REQUIRES("auth") so that the auth plugin is installed first.
// OWNERSHIP: owned by the auth plugin for the process lifetime. THREADS: thread-safe.

#include <cstdint>
#include <string>
#include <vector>

namespace soci {
class session;
}

namespace loupe::auth {

class TeamDomains {
public:
    static constexpr const char* service_name = "auth.TeamDomains";
    static constexpr int service_version = 1;

    virtual ~TeamDomains() = default;
    /// Inside the caller's transaction, adds the user to every team open to the domain of
    /// `verified_email` that they are not a member of yet, at the team's default role, except
    /// the teams in `skip` (the ones the caller manages otherwise). Returns the teams joined.
    virtual std::vector<std::string> join_open_teams(soci::session& session, int64_t user_id,
                                                     const std::string& verified_email,
                                                     const std::vector<std::string>& skip) = 0;
};

}  // namespace loupe::auth
