#pragma once
// Aliases: stable site names (a branch's latest deployment, a project's production site) that
// point at one deployment and move when a newer one is finalized.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace soci {
class session;
}

namespace loupe::deployments {

/// Points `alias` (of `type`: branch | production) at the deployment, unless it already points
/// at a newer one (a larger id) of the same project. An alias of another project is left alone:
/// callers refuse that case first (alias_owner()).
void upsert_alias(soci::session& session, const std::string& alias, const std::string& type,
                  int64_t project_id, int64_t deployment_id);
/// The project whose alias `alias` is (a current or a legacy one), if any.
std::optional<int64_t> alias_owner(soci::session& session, const std::string& alias);
/// Moves a legacy alias (named before the "--" encoding) of this project and type to the
/// deployment, when it exists and points at an older one; never creates one.
void follow_legacy_alias(soci::session& session, const std::string& alias, const std::string& type,
                         int64_t project_id, int64_t deployment_id);

/// Deletes the project's alias `alias` (another project's is left alone).
void delete_alias(soci::session& session, const std::string& alias, int64_t project_id);
/// The deployment the project's alias `alias` points at, if any.
std::optional<int64_t> alias_target(soci::session& session, const std::string& alias,
                                    int64_t project_id);

struct Alias {
    std::string name;
    std::string type;  ///< branch | production
};

/// The current (not legacy) aliases pointing at each of these deployments (deployments without
/// one are absent), each deployment's sorted by name.
std::map<int64_t, std::vector<Alias>> aliases_of(soci::session& session,
                                                 const std::vector<int64_t>& deployment_ids);

}  // namespace loupe::deployments
