#pragma once
// Which plugins' tables may hold blob keys, remembered across runs: the blob sweep only sees
// the rows of loaded plugins, so it must know whether a plugin that is not loaded now could
// reference blobs. Every time a process migrates with its plugins loaded, each loaded plugin
// is recorded with whether it registered a blob reference finder.

#include <set>
#include <string>
#include <utility>
#include <vector>

#include "loupe/export.hpp"

namespace soci {
class session;
}

namespace loupe {

/// Records (plugin, holds blob keys) for the loaded plugins (insert or replace).
LOUPE_API void record_blob_holders(soci::session& session,
                                   const std::vector<std::pair<std::string, bool>>& plugins);

/// The plugins that have tables in this database (applied migrations) but are not in `loaded`
/// and either registered a finder when last loaded or were never recorded.
LOUPE_API std::vector<std::string> unseen_blob_holders(soci::session& session,
                                                       const std::set<std::string>& loaded);

}  // namespace loupe
