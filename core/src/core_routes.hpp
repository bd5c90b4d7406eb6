#pragma once

#include "loupe/blob/blob_store.hpp"
#include "loupe/db/database.hpp"
#include "loupe/http/routes.hpp"

namespace loupe {

/// The routes the core serves itself: /healthz, /readyz, and the blob store's signed
/// upload/download routes.
void add_core_routes(Routes& routes, Database& database, BlobStore& blobs);

}  // namespace loupe
