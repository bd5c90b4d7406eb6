#include "blob/blob_download.hpp"

#include <algorithm>
#include <optional>
#include <string_view>

#include "blob/signed_request.hpp"
#include "loupe/http/http_error.hpp"

namespace loupe {
namespace {

/// Raster images are shown inline; anything else (HTML, SVG, text a user uploaded, or a list
/// such as "image/png, text/html" that a browser may read as another type) is a download, so it
/// can never run as a page of Loupe's origin. The inline answer names the bare media type.
std::optional<std::string> inline_image_type(const std::string& content_type) {
    static constexpr std::string_view raster[] = {"image/png", "image/jpeg", "image/gif",
                                                  "image/webp", "image/avif"};
    if (content_type.find(',') != std::string::npos) {
        return std::nullopt;
    }
    const std::string media_type = media_type_of(content_type);
    for (const std::string_view type : raster) {
        if (media_type == type) {
            return media_type;
        }
    }
    return std::nullopt;
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
    const std::optional<std::string> inline_type = inline_image_type(*fields.content_type);
    // A download keeps its signed type, unless that is a list of types (which a browser might
    // read as any of them).
    const std::string served_type = inline_type
                                        ? *inline_type
                                        : (fields.content_type->find(',') == std::string::npos
                                               ? *fields.content_type
                                               : std::string("application/octet-stream"));
    Response response = Response::no_content();
    if (const std::optional<std::string> path = store.local_path(key)) {
        response = Response::file(*path, served_type);
    } else if (std::optional<std::string> bytes = store.read(key)) {
        response = Response::text(std::move(*bytes), served_type);
    } else {
        throw HttpError::not_found();
    }
    if (!inline_type) {
        response.with_header("Content-Disposition", "attachment");
    }
    response.with_header("Cache-Control",
                         "private, max-age=" + std::to_string(std::max<int64_t>(0, expires - now)));
    response.with_header("ETag", "\"" + key + "\"");
    response.with_header("X-Content-Type-Options", "nosniff");
    // The signature is the credential (no cookie is read): a page of another origin holding the
    // URL may read the bytes, as the Playwright trace viewer reads a trace.
    response.with_header("Access-Control-Allow-Origin", "*");
    return response;
}

}  // namespace loupe
