#pragma once
// A small S3 REST client over the shared HTTP client (loupe/http/http_client.hpp): every
// request signed with AWS Signature V4 (header form); temporary failures (connection errors,
// 429, 5xx) retried with exponential backoff and jitter, every S3 call counting as idempotent
// (objects are content-addressed); keep-alive connections reused. Presigned URLs are built here
// too. THREADS: thread-safe.

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "blob/s3/s3_settings.hpp"
#include "loupe/export.hpp"
#include "loupe/http/http_client.hpp"
#include "loupe/log/logger.hpp"

namespace loupe {

using S3Pairs = std::vector<std::pair<std::string, std::string>>;

struct S3Response {
    int status = 0;
    std::map<std::string, std::string> headers;  ///< lower-case names
    std::string body;

    std::string header(const std::string& lower_name) const;
    /// The <Code> of an S3 XML error body ("" when there is none).
    std::string error_code() const;
};

/// A request that failed for good: after the retries, or at once for a non-temporary status.
class LOUPE_API S3Error : public std::runtime_error {
public:
    S3Error(const std::string& message, int status, std::string code)
        : std::runtime_error(message), status_(status), code_(std::move(code)) {}
    int status() const { return status_; }  ///< 0 when the server was never reached
    const std::string& code() const { return code_; }

private:
    int status_;
    std::string code_;
};

class LOUPE_API S3Client {
public:
    /// `log` (optional, must outlive the client) hears of every failed attempt.
    explicit S3Client(S3Settings settings, Logger* log = nullptr);
    S3Client(const S3Client&) = delete;
    S3Client& operator=(const S3Client&) = delete;

    /// Sends a signed request for object `name` ("" = the bucket itself) and returns the final
    /// response, whatever its status, once it is not a temporary failure. Throws S3Error when
    /// every attempt failed to reach the server or answered a temporary failure.
    S3Response send(const std::string& method, const std::string& name, const S3Pairs& query = {},
                    const S3Pairs& headers = {}, std::string_view body = {});

    /// A presigned URL for `method` on object `name`, valid `expires_s` seconds from `now_s`.
    /// `query` is signed too (e.g. response-content-type); only `host` is a signed header.
    std::string presign(const std::string& method, const std::string& name, const S3Pairs& query,
                        int64_t expires_s, int64_t now_s) const;

    const S3Settings& settings() const { return settings_; }
    /// Requests sent (attempts included), for benchmarks.
    uint64_t requests_sent() const;

private:
    S3Settings settings_;
    Logger* log_;
    HttpClient http_;
};

}  // namespace loupe
