#include "site/file_response.hpp"

#include <charconv>
#include <optional>

#include "content_types.hpp"
#include "loupe/text/strings.hpp"

namespace loupe::deployments {
namespace {

struct ByteRange {
    uint64_t first = 0;
    uint64_t length = 0;
};

bool parse_number(std::string_view text, uint64_t& value) {
    if (text.empty()) {
        return false;
    }
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    return error == std::errc() && end == text.data() + text.size();
}

/// A single "bytes=a-b" / "bytes=a-" / "bytes=-n" range. `valid` false: ignore the header
/// (malformed or several ranges: the whole file is sent, as RFC 9110 allows);
/// `satisfiable` false: 416.
struct RangeRequest {
    bool valid = false;
    bool satisfiable = false;
    ByteRange range;
};

RangeRequest parse_range(std::string_view header, uint64_t size) {
    RangeRequest result;
    header = trim(header, http_whitespace);
    if (!header.starts_with("bytes=") || header.find(',') != std::string_view::npos) {
        return result;
    }
    header.remove_prefix(6);
    const std::size_t dash = header.find('-');
    if (dash == std::string_view::npos) {
        return result;
    }
    const std::string_view first_text = trim(header.substr(0, dash), http_whitespace);
    const std::string_view last_text = trim(header.substr(dash + 1), http_whitespace);
    uint64_t first = 0, last = 0;
    if (first_text.empty()) {  // suffix: the last n bytes
        if (!parse_number(last_text, last)) {
            return result;
        }
        result.valid = true;
        result.satisfiable = last > 0 && size > 0;
        const uint64_t length = std::min(last, size);
        result.range = {size - length, length};
        return result;
    }
    if (!parse_number(first_text, first) ||
        (!last_text.empty() && !parse_number(last_text, last)) ||
        (!last_text.empty() && last < first)) {
        return result;
    }
    result.valid = true;
    result.satisfiable = first < size;
    if (result.satisfiable) {
        const uint64_t end = last_text.empty() ? size - 1 : std::min(last, size - 1);
        result.range = {first, end - first + 1};
    }
    return result;
}

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

/// True when the If-None-Match header lists `etag` (or is "*"), weak or strong.
bool etag_matches(std::string_view header, const std::string& etag) {
    while (!header.empty()) {
        const std::size_t comma = header.find(',');
        std::string_view item = trim(header.substr(0, comma), http_whitespace);
        if (item.starts_with("W/")) {
            item.remove_prefix(2);
        }
        if (item == "*" || item == etag) {
            return true;
        }
        if (comma == std::string_view::npos) {
            break;
        }
        header.remove_prefix(comma + 1);
    }
    return false;
}

/// The body from the blob store: its local file, its bytes, or a redirect to a signed URL.
std::optional<Response> body_of(BlobStore& blobs, const std::string& key,
                                const std::string& content_type, int64_t size,
                                std::optional<ByteRange> range) {
    if (auto path = blobs.local_path(key)) {
        Response response = Response::file(*path, content_type);
        if (range) {
            response.file_offset = range->first;
            response.file_length = range->length;
        }
        return response;
    }
    if (size > max_proxied_bytes) {
        Response redirect;
        redirect.status = 302;
        redirect.headers.emplace_back("Location", blobs.signed_get_url(key, content_type, 600000));
        return redirect;
    }
    auto bytes = blobs.read(key);
    if (!bytes) {
        return std::nullopt;
    }
    if (range) {
        *bytes = bytes->substr(range->first, range->length);
    }
    return Response::text(std::move(*bytes), content_type);
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
                parse_range(*range_header, static_cast<uint64_t>(file.size));
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
    std::optional<Response> response = body_of(blobs, key, file.content_type, size, range);
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
