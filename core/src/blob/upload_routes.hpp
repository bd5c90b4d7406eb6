#pragma once
// The routes behind the URLs a LocalBlobStore signs: `PUT /uploads/{key}` (legacy form),
// `POST /uploads` (multipart form) and `GET /blobs/{key}` (downloads). They need no token:
// the HMAC signature of each URL or form is the authorization.

#include <cstdint>

#include "blob/local_blob_store.hpp"
#include "loupe/export.hpp"
#include "loupe/http/routes.hpp"
#include "loupe/log/logger.hpp"
#include "loupe/metrics/metrics.hpp"

namespace loupe {

struct UploadLimits {
    uint64_t max_bytes = 50ull << 20;            ///< `blobs.max_upload_bytes`
    metrics::Counter* uploaded_bytes = nullptr;  ///< counts the bytes of stored uploads
};

/// The upload routes and the download route of a local store.
/// OWNERSHIP: `store` and `log` must outlive the routes.
LOUPE_API void add_blob_routes(Routes& routes, LocalBlobStore& store, UploadLimits limits,
                               Logger& log);

/// `GET /blobs/{key}` alone, for a store whose uploads go elsewhere (S3, proxied downloads).
/// OWNERSHIP: `signer` and `store` must outlive the route.
LOUPE_API void add_blob_download_route(Routes& routes, const UrlSigner& signer, BlobStore& store);

}  // namespace loupe
