#include "loupe/http/blob_response.hpp"

#include <algorithm>
#include <charconv>

#include "loupe/text/strings.hpp"

namespace loupe {
namespace {

bool parse_number(std::string_view text, uint64_t& value) {
    if (text.empty()) {
        return false;
    }
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    return error == std::errc() && end == text.data() + text.size();
}

}  // namespace

RangeRequest parse_byte_range(std::string_view header, uint64_t size) {
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

std::optional<Response> blob_body(BlobStore& blobs, const std::string& key,
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

Response blob_response(Request& request, BlobStore& blobs, const BlobServing& blob) {
    const auto common = [&](Response& response) {
        response.with_header("ETag", blob.etag)
            .with_header("Cache-Control", blob.cache_control)
            .with_header("X-Content-Type-Options", "nosniff")
            .with_header("Accept-Ranges", "bytes");
    };
    if (auto header = request.header("If-None-Match"); header && etag_matches(*header, blob.etag)) {
        Response not_modified;
        not_modified.status = 304;
        common(not_modified);
        return not_modified;
    }
    std::optional<ByteRange> range;
    const auto range_header = request.header("Range");
    const auto if_range = request.header("If-Range");
    if (range_header && (!if_range || *if_range == blob.etag)) {
        const RangeRequest parsed =
            parse_byte_range(*range_header, static_cast<uint64_t>(blob.size));
        if (parsed.valid && !parsed.satisfiable) {
            Response refused = Response::text("", blob.content_type, 416);
            refused.with_header("Content-Range", "bytes */" + std::to_string(blob.size));
            common(refused);
            return refused;
        }
        if (parsed.valid) {
            range = parsed.range;
        }
    }
    std::optional<Response> response =
        blob_body(blobs, blob.key, blob.content_type, blob.size, range);
    if (!response) {
        return Response::text("Not found\n", "text/plain; charset=utf-8", 404);
    }
    if (response->status == 302) {
        return *response;
    }
    response->status = range ? 206 : 200;
    common(*response);
    if (range) {
        response->with_header("Content-Range",
                              "bytes " + std::to_string(range->first) + "-" +
                                  std::to_string(range->first + range->length - 1) + "/" +
                                  std::to_string(blob.size));
    }
    return *response;
}

}  // namespace loupe
