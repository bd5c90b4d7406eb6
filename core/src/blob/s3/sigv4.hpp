#pragma once
// AWS Signature Version 4 (AWS4-HMAC-SHA256): the canonical request, the string to sign, the
// derived signing key, the Authorization header, presigned query strings and the signature of
// a browser POST policy. Pure functions: the caller supplies the time, so every step is
// testable against AWS's published vectors.

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "loupe/export.hpp"

namespace loupe::sigv4 {

struct Credentials {
    std::string access_key;
    std::string secret_key;
    std::string session_token;  ///< empty unless temporary credentials are used
};

/// Where a signature is valid: region and service ("s3").
struct Scope {
    std::string region;
    std::string service = "s3";
};

/// A request to sign. Header names may be in any case; `path` is the raw (unencoded) path.
struct Request {
    std::string method;
    std::string path;
    std::vector<std::pair<std::string, std::string>> query;  ///< raw names and values
    std::vector<std::pair<std::string, std::string>> headers;
    std::string payload_hash;  ///< hex SHA-256 of the body, or "UNSIGNED-PAYLOAD"
};

inline constexpr const char* unsigned_payload = "UNSIGNED-PAYLOAD";

/// RFC 3986 percent-encoding as SigV4 wants it: unreserved characters kept, '/' kept unless
/// `encode_slash`, everything else %XX with upper-case hex.
LOUPE_API std::string uri_encode(std::string_view text, bool encode_slash);
/// "20150830T123600Z" for a time in epoch seconds.
LOUPE_API std::string amz_date(int64_t epoch_s);

LOUPE_API std::string canonical_request(const Request& request);
LOUPE_API std::string string_to_sign(const std::string& amz_date, const Scope& scope,
                                     const std::string& canonical);
LOUPE_API std::string signing_key(const std::string& secret_key, const std::string& date,
                                  const Scope& scope);
/// "<date>/<region>/<service>/aws4_request"
LOUPE_API std::string credential_scope(const std::string& date, const Scope& scope);

/// The value of the Authorization header for `request`, which must already carry the
/// `x-amz-date` header (and `host`).
LOUPE_API std::string authorization(const Request& request, const Credentials& credentials,
                                    const Scope& scope, const std::string& amz_date);

/// The query string of a presigned URL (X-Amz-* parameters and the signature, after the
/// request's own query parameters). Only `host` and the request's headers are signed.
LOUPE_API std::string presigned_query(const Request& request, const Credentials& credentials,
                                      const Scope& scope, const std::string& amz_date,
                                      int64_t expires_s);

/// The hex signature of a base64 POST policy document.
LOUPE_API std::string policy_signature(const std::string& policy_base64,
                                       const Credentials& credentials, const Scope& scope,
                                       const std::string& date);

}  // namespace loupe::sigv4
