#pragma once
// The HTTP answer for one file of a site: content type as declared at creation, ETag = content
// hash (If-None-Match → 304), the gzip variant when the client accepts it, one byte range
// (Range → 206, unsatisfiable → 416), and the blob's local file when the store has one.

#include <string>

#include "loupe/blob/blob_store.hpp"
#include "loupe/http/request.hpp"
#include "loupe/http/response.hpp"
#include "site/site_content.hpp"

namespace loupe::deployments {

/// `status` is 200, or 404 for a site's own 404.html (then no 304 or range applies).
Response file_response(Request& request, BlobStore& blobs, const SiteFile& file,
                       const std::string& cache_control, int status = 200);

}  // namespace loupe::deployments
