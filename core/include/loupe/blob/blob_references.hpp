#pragma once
// Which blobs are still in use. Blobs are shared by content (a screenshot and a deployed file
// may be the same bytes), so no plugin may delete a blob on its own knowledge: each plugin that
// keeps blob keys in its tables registers a finder, and whoever deletes (retention) first asks
// all of them. OWNERSHIP: owned by the core. THREADS: add() during install() only;
// referenced() is thread-safe and runs in the caller's session (and transaction).

#include <functional>
#include <set>
#include <string>
#include <vector>

#include "loupe/export.hpp"

namespace soci {
class session;
}

namespace loupe {

/// The subset of `keys` (lower-case SHA-256) that the plugin's rows reference.
using BlobReferenceFinder = std::function<std::set<std::string>(
    soci::session& session, const std::vector<std::string>& keys)>;

class LOUPE_API BlobReferences {
public:
    virtual ~BlobReferences();
    /// Registers the calling plugin's finder (install() only).
    virtual void add(BlobReferenceFinder finder) = 0;
    /// The subset of `keys` that any enabled plugin's rows reference. Blobs referenced only by
    /// the rows of a plugin that is not enabled are not seen.
    virtual std::set<std::string> referenced(soci::session& session,
                                             const std::vector<std::string>& keys) = 0;
};

}  // namespace loupe
