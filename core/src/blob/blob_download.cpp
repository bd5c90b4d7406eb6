#include "blob/blob_download.hpp"

#include <algorithm>

#include "blob/signed_request.hpp"
#include "loupe/http/http_error.hpp"

namespace loupe {
namespace {

/// Raster images are shown inline; anything else (HTML, SVG, text a user uploaded) is a
/// download, so it can never run as a page of Loupe's origin.
bool is_inline_type(const std::string& media_type) {
    return media_type.starts_with("image/") && media_type != "image/svg+xml";
}

}  // namespace

Response serve_blob(Request& request, const UrlSigner& signer, BlobStore& store) {
    const std::string& raw_key = request.param("key");
    if (!is_blob_key(raw_key)) {
        throw HttpError::not_found();
    }
    const std::string key = normalize_blob_key(raw_key);
    const SignedFields fields{request.query("contentType"), request.query("expires"),
                              request.query("signature")};
    const int64_t now = now_seconds();
    const int64_t expires =
        require_signature(signer, "GET", key, fields, now, "Invalid or expired download signature");
    Response response = Response::no_content();
    if (const std::optional<std::string> path = store.local_path(key)) {
        response = Response::file(*path, *fields.content_type);
    } else if (std::optional<std::string> bytes = store.read(key)) {
        response = Response::text(std::move(*bytes), *fields.content_type);
    } else {
        throw HttpError::not_found();
    }
    if (!is_inline_type(media_type_of(*fields.content_type))) {
        response.with_header("Content-Disposition", "attachment");
    }
    response.with_header("Cache-Control",
                         "private, max-age=" + std::to_string(std::max<int64_t>(0, expires - now)));
    response.with_header("ETag", "\"" + key + "\"");
    response.with_header("X-Content-Type-Options", "nosniff");
    return response;
}

}  // namespace loupe
