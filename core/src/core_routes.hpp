#pragma once

#include "blob/local_blob_store.hpp"
#include "blob/upload_routes.hpp"
#include "loupe/db/database.hpp"
#include "loupe/http/routes.hpp"
#include "loupe/log/logger.hpp"

namespace loupe {

/// The routes the core serves itself: /healthz, /readyz, and the blob store's signed
/// upload/download routes.
void add_core_routes(Routes& routes, Database& database, LocalBlobStore& blobs, UploadLimits limits,
                     Logger& log);

}  // namespace loupe
