#include "blob/signed_request.hpp"

#include <charconv>

#include "loupe/http/http_error.hpp"
#include "loupe/json.hpp"
#include "loupe/text/strings.hpp"

namespace loupe {
namespace {

std::optional<int64_t> parse_seconds(const std::string& text) {
    int64_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size() || value < 0) {
        return std::nullopt;
    }
    return value;
}

}  // namespace

std::string require_blob_key(std::string_view raw, const std::string& message) {
    if (!is_blob_key(raw)) {
        throw HttpError::bad_request(message);
    }
    return normalize_blob_key(raw);
}

int64_t require_signature(const UrlSigner& signer, const std::string& method,
                          const std::string& key, const SignedFields& fields, int64_t now_s,
                          const std::string& message) {
    if (!fields.content_type || !fields.expires || !fields.signature) {
        throw HttpError::forbidden(message);
    }
    const std::optional<int64_t> expires = parse_seconds(*fields.expires);
    if (!expires ||
        !signer.verify(method, key, *fields.content_type, *expires, *fields.signature, now_s)) {
        throw HttpError::forbidden(message);
    }
    return *expires;
}

std::string media_type_of(std::string_view content_type) {
    return to_lower(trim(content_type.substr(0, content_type.find(';'))));
}

void require_signed_content_type(const std::optional<std::string>& sent,
                                 const std::string& signed_type) {
    // An empty signed type is the legacy putUrl form, which declares no type: any is accepted.
    if (sent && !signed_type.empty() && media_type_of(*sent) != media_type_of(signed_type)) {
        throw HttpError::forbidden("Content-Type does not match the signed upload (expected " +
                                   media_type_of(signed_type) + ")");
    }
}

int64_t now_seconds() {
    return now_ms() / 1000;
}

}  // namespace loupe
