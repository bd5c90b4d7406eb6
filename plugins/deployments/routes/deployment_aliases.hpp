#pragma once
// The aliases a deployment takes when it is finalized: its branch's, and for production the
// project's production alias; the legacy names of both follow along where they exist.

#include <string>
#include <vector>

#include "loupe/auth/identity.hpp"

namespace soci {
class session;
}

namespace loupe::deployments {

struct PlannedAlias {
    std::string name;
    std::string legacy_name;
    std::string type;  ///< branch | production
};

std::vector<PlannedAlias> planned_aliases(const Project& project, const std::string& branch,
                                          const std::string& environment);

/// Throws HttpError 409 when another project holds one of the aliases (a name collision its
/// encoding cannot rule out: two project or account names whose digests collide).
void refuse_alias_conflicts(soci::session& session, const Project& project,
                            const std::vector<PlannedAlias>& aliases);

/// Points the aliases at the deployment (after refuse_alias_conflicts in the same transaction).
void point_aliases(soci::session& session, const Project& project,
                   const std::vector<PlannedAlias>& aliases, int64_t deployment_id);

}  // namespace loupe::deployments
