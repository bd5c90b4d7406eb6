#pragma once
// `PUT /uploads/{key}?expires&contentType&signature`: the raw bytes of one blob (the URL
// `putUrl` of POST /builds points at).

#include "blob/local_blob_store.hpp"
#include "blob/upload_routes.hpp"
#include "loupe/http/request.hpp"
#include "loupe/http/response.hpp"
#include "loupe/log/logger.hpp"

namespace loupe {

/// 200 `{"key", "size"}` once stored; HttpError 400/403/413 as documented in upload_routes.
Response receive_put_upload(Request& request, LocalBlobStore& store, UploadLimits limits,
                            Logger& log);

}  // namespace loupe
