#pragma once

#include <string>

namespace loupe::deployments {

/// minimatch-style: `*` stays within a path segment, `**` crosses '/'; `?`, `[...]` as usual.
bool branch_matches_glob(const std::string& glob, const std::string& branch);

}  // namespace loupe::deployments
