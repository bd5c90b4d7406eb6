#pragma once
// The blob keys the builds plugin's rows hold: screenshots, Playwright traces and diff masks.

#include <set>
#include <string>
#include <vector>

namespace soci {
class session;
}

namespace loupe::builds {

/// The subset of `keys` that a screenshot, a trace or a diff mask references.
std::set<std::string> referenced_blob_keys(soci::session& session,
                                           const std::vector<std::string>& keys);

}  // namespace loupe::builds
