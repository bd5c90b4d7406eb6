#pragma once
// Private-site links: each opens one deployment (the one its site name reached when it was
// issued), until it expires or is revoked. `source` says who issued it: "api" (the URLs the API
// hands out; one is reused for a deployment and name while it has at least half its lifetime
// left) or "admin" (`loupe admin deployments link`, always new).

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "store/sites.hpp"

namespace soci {
class session;
}

namespace loupe::deployments {

struct SiteLink {
    int64_t id = 0;
    int64_t project_id = 0;
    int64_t deployment_id = 0;
    std::string site_name;  ///< what it was asked for: a slug or an alias
    std::string source;     ///< api | admin
    int64_t created_at = 0;
    int64_t expires_at = 0;  ///< epoch ms
    std::optional<int64_t> revoked_at;
};

/// Inserts the link (id filled), then stores `key_hash_of(id)`, the hash of its key.
void insert_link(soci::session& session, SiteLink& link,
                 const std::function<std::string(int64_t)>& key_hash_of);

/// What a link's key opens when it is not revoked: its deployment (ready), `via_link` set and
/// `link_expires_at` the link's expiry (checked by the caller, as the answer may be cached).
std::optional<SiteTarget> find_link_target(soci::session& session, const std::string& key_hash);

/// The live "api" links of these deployments that expire after `not_before`, by deployment
/// and site name (the one expiring last when there are several).
std::map<std::pair<int64_t, std::string>, SiteLink> reusable_api_links(
    soci::session& session, const std::vector<int64_t>& deployment_ids, int64_t not_before);

/// A project's links that are neither expired nor revoked at `now`, newest first; only those
/// issued for `site_name` when given.
std::vector<SiteLink> live_links(soci::session& session, int64_t project_id, int64_t now,
                                 const std::optional<std::string>& site_name = std::nullopt);
/// Revokes one live link of the project; false when there is none with this id.
bool revoke_link(soci::session& session, int64_t project_id, int64_t link_id, int64_t now);
/// Revokes the project's live links (of `site_name` only, when given); returns how many.
int64_t revoke_links(soci::session& session, int64_t project_id, int64_t now,
                     const std::optional<std::string>& site_name = std::nullopt);

}  // namespace loupe::deployments
