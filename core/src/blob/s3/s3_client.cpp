#include "blob/s3/s3_client.hpp"

#include <limits>

#include "loupe/crypto/digest.hpp"
#include "loupe/json.hpp"

namespace loupe {
namespace {

bool is_temporary(int status) {
    return status == 429 || status == 500 || status == 502 || status == 503 || status == 504;
}

std::string query_string(const S3Pairs& query) {
    std::string out;
    for (const auto& [name, value] : query) {
        out += (out.empty() ? "?" : "&") + sigv4::uri_encode(name, true);
        if (!value.empty() || name.find('=') == std::string::npos) {
            out += "=" + sigv4::uri_encode(value, true);
        }
    }
    return out;
}

std::string between(const std::string& text, const std::string& open, const std::string& close) {
    const auto start = text.find(open);
    if (start == std::string::npos) {
        return "";
    }
    const auto end = text.find(close, start + open.size());
    return end == std::string::npos ? ""
                                    : text.substr(start + open.size(), end - start - open.size());
}

}  // namespace

std::string S3Response::header(const std::string& lower_name) const {
    auto it = headers.find(lower_name);
    return it == headers.end() ? std::string() : it->second;
}

std::string S3Response::error_code() const {
    return between(body, "<Code>", "</Code>");
}

S3Client::S3Client(S3Settings settings, Logger* log) : settings_(std::move(settings)), log_(log) {}

uint64_t S3Client::requests_sent() const {
    return http_.attempts_sent();
}

S3Response S3Client::send(const std::string& method, const std::string& name, const S3Pairs& query,
                          const S3Pairs& headers, std::string_view body) {
    const std::string payload_hash = crypto::sha256_hex(body);
    const auto amz_date = sigv4::amz_date(now_ms() / 1000);
    sigv4::Request signed_request{method, settings_.object_path(name), query, headers,
                                  payload_hash};
    signed_request.headers.emplace_back("host", settings_.host_header());
    signed_request.headers.emplace_back("x-amz-date", amz_date);
    signed_request.headers.emplace_back("x-amz-content-sha256", payload_hash);
    if (!settings_.credentials.session_token.empty()) {
        signed_request.headers.emplace_back("x-amz-security-token",
                                            settings_.credentials.session_token);
    }
    HttpHeaders request_headers = signed_request.headers;
    request_headers.emplace_back(
        "Authorization",
        sigv4::authorization(signed_request, settings_.credentials, settings_.scope, amz_date));
    const HttpRequest request{
        method,
        settings_.scheme + "://" + settings_.request_host() + ":" + std::to_string(settings_.port) +
            sigv4::uri_encode(signed_request.path, false) + query_string(query),
        request_headers, body};

    const auto timeout = std::chrono::milliseconds(settings_.timeout_ms);
    const HttpCallOptions options{
        .connect_timeout = timeout,
        .io_timeout = timeout,
        .max_response_bytes = std::numeric_limits<std::size_t>::max(),  // objects: any size
        .max_attempts = settings_.max_attempts,
        .retry_base = std::chrono::milliseconds(settings_.retry_base_ms),
        .idempotent = true,  // content-addressed objects: sending twice stores the same bytes
        .on_attempt =
            [&](const HttpAttempt& attempt) {
                if (log_ == nullptr) {
                    return;
                }
                if (attempt.error.empty()) {
                    log_->debug("blobs.s3.request",
                                {{"method", method},
                                 {"object", name},
                                 {"status", std::to_string(attempt.status)},
                                 {"bytes_out", std::to_string(body.size())},
                                 {"bytes_in", std::to_string(attempt.bytes_in)},
                                 {"ms", std::to_string(attempt.elapsed.count())}});
                }
                if (!attempt.error.empty() || is_temporary(attempt.status)) {
                    log_->warn(
                        "blobs.s3.attempt_failed",
                        {{"method", method},
                         {"object", name},
                         {"attempt", std::to_string(attempt.number)},
                         {"error", attempt.error.empty() ? "HTTP " + std::to_string(attempt.status)
                                                         : attempt.error}});
                }
            },
    };
    const auto failed = [&](const std::string& why, int status) {
        return S3Error("S3 " + method + " " + settings_.origin() + settings_.object_path(name) +
                           " failed after " + std::to_string(settings_.max_attempts) +
                           " attempts: " + why,
                       status, "");
    };
    HttpResponse response;
    try {
        response = http_.send(request, options);
    } catch (const HttpTransportError& error) {
        throw failed(error.what(), 0);
    }
    S3Response result{response.status, std::move(response.headers), std::move(response.body)};
    if (is_temporary(result.status)) {
        throw failed("HTTP " + std::to_string(result.status) + " " + result.error_code(),
                     result.status);
    }
    return result;
}

std::string S3Client::presign(const std::string& method, const std::string& name,
                              const S3Pairs& query, int64_t expires_s, int64_t now_s) const {
    sigv4::Request request{method,
                           settings_.object_path(name),
                           query,
                           {{"host", settings_.host_header()}},
                           sigv4::unsigned_payload};
    return settings_.origin() + sigv4::uri_encode(request.path, false) + "?" +
           sigv4::presigned_query(request, settings_.credentials, settings_.scope,
                                  sigv4::amz_date(now_s), expires_s);
}

}  // namespace loupe
