#pragma once

#include <functional>

#include "blob/local_blob_store.hpp"
#include "blob/upload_routes.hpp"
#include "loupe/db/database.hpp"
#include "loupe/http/routes.hpp"
#include "loupe/log/logger.hpp"

namespace loupe {

/// What /readyz checks and which blob routes exist.
struct CoreRouteTargets {
    Database& database;
    BlobStore& blobs;
    LocalBlobStore* local_blobs;  ///< the upload routes exist only for a local store
    const UrlSigner& signer;
    std::function<bool()> blobs_ready;  ///< empty: nothing to check (a local folder)
};

/// The routes the core serves itself: /healthz, /readyz (database and blob store), and the
/// blob store's signed upload/download routes.
void add_core_routes(Routes& routes, const CoreRouteTargets& targets, UploadLimits limits,
                     Logger& log);

}  // namespace loupe
