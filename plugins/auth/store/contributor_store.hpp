#pragma once
// A project's contributors: the users granted a level (admin, reviewer, viewer) on one project,
// the core's project_users rows. Team owners and members reach every project through their
// role and are listed here only when granted a level too. Who may call is the access guard's
// decision (RouteAccess::project); the rules of the grants themselves are here, each change in
// one transaction.

#include <cstdint>
#include <string>
#include <vector>

#include "loupe/auth/identity.hpp"
#include "loupe/db/database.hpp"

namespace loupe::auth {

/// One grant: its id, the user's id, personal account (Argos's `user.id`), slug and name.
struct ProjectContributor {
    int64_t id = 0;
    int64_t user_id = 0;
    int64_t user_account_id = 0;
    std::string slug;
    std::string name;
    std::string level;  ///< admin | reviewer | viewer
};

struct ContributorPage {
    std::vector<ProjectContributor> contributors;
    int64_t total = 0;  ///< over all pages
};

class ContributorStore {
public:
    explicit ContributorStore(Database& database) : database_(database) {}

    /// The grants of `project`, `current_user_id`'s first, then oldest first.
    ContributorPage list(const Project& project, int64_t current_user_id, int64_t offset,
                         int64_t limit);
    /// Grants `level` to the user whose personal account is `user_account_id`, or changes the
    /// level they hold (untouched when it is the same). 404 "User not found." for an id naming
    /// no user; 400 for a user who is not a member of the project's account. A change leaves a
    /// `project.contributor` row in the account's trail, by `actor_user_id` (0: none).
    ProjectContributor set(const Project& project, int64_t user_account_id,
                           const std::string& level, int64_t actor_user_id);
    /// The user whose personal account is `user_account_id`: 404 "User not found." when none.
    int64_t user_of_account(int64_t user_account_id);
    /// Revokes the grant, with its row in the account's trail; 404 when the user holds none.
    void remove(const Project& project, int64_t user_account_id, int64_t actor_user_id);

private:
    Database& database_;
};

}  // namespace loupe::auth
