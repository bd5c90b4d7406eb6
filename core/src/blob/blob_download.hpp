#pragma once
// `GET /blobs/{key}?expires&contentType&signature`: a blob served back through the URL
// signed_download_url made (the `url` fields of API responses), from any store: a local file
// is sent as it is, a blob of a remote store is read through. HEAD works too.

#include "blob/url_signer.hpp"
#include "loupe/blob/blob_store.hpp"
#include "loupe/http/request.hpp"
#include "loupe/http/response.hpp"

namespace loupe {

/// The file with the signed Content-Type; HttpError 403 for a bad or expired signature,
/// 404 for a blob the store does not hold.
Response serve_blob(Request& request, const UrlSigner& signer, BlobStore& store);

}  // namespace loupe
