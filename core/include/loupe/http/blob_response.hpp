#pragma once
// Serving a stored blob over HTTP, as files are served: a strong ETag (If-None-Match → 304),
// one byte range (Range → 206 with Content-Range, unsatisfiable → 416, If-Range honoured) so
// that browsers can seek in a video, and the body from the blob's local file when the store
// has one, its bytes up to `max_proxied_bytes`, else a redirect to a signed download. Part of
// the plugin SDK (deployed sites, media).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "loupe/blob/blob_store.hpp"
#include "loupe/export.hpp"
#include "loupe/http/request.hpp"
#include "loupe/http/response.hpp"

namespace loupe {

struct ByteRange {
    uint64_t first = 0;
    uint64_t length = 0;
};

/// A Range header read against a body of `size` bytes. `valid` false: the header is ignored
/// (malformed, or several ranges: the whole body is sent, as RFC 9110 allows); `satisfiable`
/// false: the answer is 416.
struct RangeRequest {
    bool valid = false;
    bool satisfiable = false;
    ByteRange range;
};

/// A single "bytes=a-b" / "bytes=a-" / "bytes=-n" range.
LOUPE_API RangeRequest parse_byte_range(std::string_view header, uint64_t size);

/// True when an If-None-Match header lists `etag` (or is "*"), weak or strong.
LOUPE_API bool etag_matches(std::string_view header, const std::string& etag);

/// Blobs of stores without local files: up to this size read and sent, larger ones a redirect
/// to a signed download URL.
inline constexpr int64_t max_proxied_bytes = int64_t{8} * 1024 * 1024;

/// The body of blob `key` (`size` bytes), or of `range` of it; nullopt when the blob is absent.
LOUPE_API std::optional<Response> blob_body(BlobStore& blobs, const std::string& key,
                                            const std::string& content_type, int64_t size,
                                            std::optional<ByteRange> range);

struct BlobServing {
    std::string key;
    std::string content_type;
    int64_t size = 0;
    std::string etag;  ///< quoted, e.g. "\"<hash>\""
    std::string cache_control;
};

/// The whole answer for a GET of the blob (ETag, 304, Range, Accept-Ranges, nosniff); 404 when
/// the blob is absent.
LOUPE_API Response blob_response(Request& request, BlobStore& blobs, const BlobServing& blob);

}  // namespace loupe
