#pragma once
// The routes behind the URLs a LocalBlobStore signs: `PUT /uploads/{key}` (legacy form),
// `POST /uploads` (multipart form) and `GET /blobs/{key}` (downloads). They need no token:
// the HMAC signature of each URL or form is the authorization.

#include <cstdint>

#include "blob/local_blob_store.hpp"
#include "loupe/export.hpp"
#include "loupe/http/routes.hpp"
#include "loupe/log/logger.hpp"

namespace loupe {

struct UploadLimits {
    uint64_t max_bytes = 50ull << 20;  ///< `blobs.max_upload_bytes`
};

/// OWNERSHIP: `store` and `log` must outlive the routes.
LOUPE_API void add_blob_routes(Routes& routes, LocalBlobStore& store, UploadLimits limits,
                               Logger& log);

}  // namespace loupe
