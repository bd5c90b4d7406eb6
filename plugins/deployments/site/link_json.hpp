// A private link as the API and `loupe admin deployments links --json` show it (never its key,
// which is stored hashed and shown once, when the link is issued).
#pragma once

#include "loupe/json.hpp"
#include "store/links.hpp"

namespace loupe::deployments {

Json link_json(const SiteLink& link);

}  // namespace loupe::deployments
