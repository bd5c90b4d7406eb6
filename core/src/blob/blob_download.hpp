#pragma once
// `GET /blobs/{key}?expires&contentType&signature`: a blob served back through the URL
// LocalBlobStore::signed_get_url made (the `url` fields of API responses). HEAD works too.

#include "blob/local_blob_store.hpp"
#include "loupe/http/request.hpp"
#include "loupe/http/response.hpp"

namespace loupe {

/// The file with the signed Content-Type; HttpError 403 for a bad or expired signature,
/// 404 for a blob the store does not hold.
Response serve_blob(Request& request, LocalBlobStore& store);

}  // namespace loupe
