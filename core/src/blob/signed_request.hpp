#pragma once
// Checks shared by the signed blob routes (/uploads, /blobs): the key format, the HMAC
// signature of (method, key, content type, expiry), and the Content-Type a client sends.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "blob/local_blob_store.hpp"
#include "blob/url_signer.hpp"

namespace loupe {

/// The signed parts of a URL or form, as received; any may be missing.
struct SignedFields {
    std::optional<std::string> content_type;
    std::optional<std::string> expires;
    std::optional<std::string> signature;
};

/// The lower-case key; throws HttpError 400 `message` unless `raw` is 64 hex characters.
std::string require_blob_key(std::string_view raw, const std::string& message);

/// Verifies the signature of `fields` for `method` and the lower-case `key` at `now_s`;
/// returns the expiry (epoch seconds). Throws HttpError 403 `message` when a field is missing
/// or malformed, the signature is wrong, or it has expired.
int64_t require_signature(const UrlSigner& signer, const std::string& method,
                          const std::string& key, const SignedFields& fields, int64_t now_s,
                          const std::string& message);

/// The media type of a Content-Type value: trimmed, lower-case, parameters after ';' dropped.
std::string media_type_of(std::string_view content_type);

/// Throws HttpError 403 when a Content-Type the client sent (if any) is not the signed one.
void require_signed_content_type(const std::optional<std::string>& sent,
                                 const std::string& signed_type);

int64_t now_seconds();

}  // namespace loupe
