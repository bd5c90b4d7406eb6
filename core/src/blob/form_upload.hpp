#pragma once
// `POST /uploads`, multipart/form-data: the S3-style form of the secure upload (`postUrl` +
// `fields`). The signed fields (key, Content-Type, expires, signature) come first, then the
// part named `file`; anything after the file is ignored, as S3 does.

#include "blob/local_blob_store.hpp"
#include "blob/upload_routes.hpp"
#include "loupe/http/request.hpp"
#include "loupe/http/response.hpp"
#include "loupe/log/logger.hpp"

namespace loupe {

/// 204 once stored; HttpError 400/403/413 with the same rules as the PUT form.
Response receive_form_upload(Request& request, LocalBlobStore& store, UploadLimits limits,
                             Logger& log);

}  // namespace loupe
