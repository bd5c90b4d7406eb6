#include "site/file_response.hpp"

#include <optional>

#include "content_types.hpp"
#include "loupe/http/blob_response.hpp"
#include "loupe/text/strings.hpp"

namespace loupe::deployments {
namespace {

/// True when an Accept-Encoding header accepts gzip (listed without q=0).
bool accepts_gzip(std::string_view header) {
    while (!header.empty()) {
        const std::size_t comma = header.find(',');
        std::string_view item = trim(header.substr(0, comma), http_whitespace);
        const std::size_t semicolon = item.find(';');
        const std::string_view coding = trim(item.substr(0, semicolon), http_whitespace);
        if (coding == "gzip" || coding == "x-gzip" || coding == "*") {
            if (semicolon == std::string_view::npos) {
                return true;
            }
            std::string_view parameter = trim(item.substr(semicolon + 1), http_whitespace);
            if (!parameter.starts_with("q=")) {
                return true;
            }
            parameter.remove_prefix(2);
            // q=0, q=0.0, q=0.000 refuse; anything else accepts.
            return parameter.find_first_not_of("0.") != std::string_view::npos;
        }
        if (comma == std::string_view::npos) {
            break;
        }
        header.remove_prefix(comma + 1);
    }
    return false;
}

}  // namespace

Response file_response(Request& request, BlobStore& blobs, const SiteFile& file,
                       const std::string& cache_control, int status) {
    const bool gzip =
        file.gzip_hash && accepts_gzip(request.header("Accept-Encoding").value_or(""));
    const std::optional<std::string> range_header = request.header("Range");
    const bool use_gzip = gzip && !range_header;
    const std::string etag = "\"" + file.hash + (use_gzip ? "-gzip" : "") + "\"";
    const auto common = [&](Response& response) {
        response.with_header("ETag", etag).with_header("Cache-Control", cache_control);
        response.with_header("X-Content-Type-Options", "nosniff");
        if (is_compressible_type(file.content_type)) {
            response.with_header("Vary", "Accept-Encoding");
        }
        if (status == 200) {
            response.with_header("Accept-Ranges", "bytes");
        }
    };

    if (status == 200) {
        if (auto header = request.header("If-None-Match"); header && etag_matches(*header, etag)) {
            Response not_modified;
            not_modified.status = 304;
            common(not_modified);
            return not_modified;
        }
    }

    std::optional<ByteRange> range;
    if (status == 200 && range_header && !use_gzip) {
        const auto if_range = request.header("If-Range");
        if (!if_range || *if_range == etag) {
            const RangeRequest parsed =
                parse_byte_range(*range_header, static_cast<uint64_t>(file.size));
            if (parsed.valid && !parsed.satisfiable) {
                Response refused = Response::text("", file.content_type, 416);
                refused.with_header("Content-Range", "bytes */" + std::to_string(file.size));
                common(refused);
                return refused;
            }
            if (parsed.valid) {
                range = parsed.range;
            }
        }
    }

    const std::string& key = use_gzip ? *file.gzip_hash : file.hash;
    const int64_t size = use_gzip ? file.gzip_size : file.size;
    std::optional<Response> response = blob_body(blobs, key, file.content_type, size, range);
    if (!response) {
        Response missing = Response::text("Not found\n", "text/plain; charset=utf-8", 404);
        return missing;
    }
    if (response->status == 302) {
        return *response;
    }
    response->status = range ? 206 : status;
    common(*response);
    if (use_gzip) {
        response->with_header("Content-Encoding", "gzip");
    }
    if (range) {
        response->with_header("Content-Range",
                              "bytes " + std::to_string(range->first) + "-" +
                                  std::to_string(range->first + range->length - 1) + "/" +
                                  std::to_string(file.size));
    }
    return *response;
}

}  // namespace loupe::deployments
