#include "blob/s3/s3_client.hpp"

#include <Poco/Net/Context.h>
#include <Poco/Net/HTTPClientSession.h>
#include <Poco/Net/HTTPRequest.h>
#include <Poco/Net/HTTPResponse.h>
#include <Poco/Net/HTTPSClientSession.h>
#include <Poco/Net/NetException.h>
#include <Poco/Net/SSLManager.h>
#include <Poco/StreamCopier.h>

#include <algorithm>
#include <chrono>
#include <random>
#include <thread>

#include "loupe/crypto/digest.hpp"
#include "loupe/json.hpp"

namespace loupe {
namespace {

/// Fewer idle connections than this are kept; more are closed when handed back.
constexpr std::size_t max_idle_sessions = 32;
/// A connection idle longer than this is reopened before use: servers close idle keep-alive
/// connections after a few seconds (node: 5 s, nginx: 75 s), and a request sent on a closed one
/// fails with no answer.
constexpr int idle_reconnect_seconds = 3;

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

Poco::Net::Context::Ptr tls_context() {
    static const Poco::Net::Context::Ptr context = [] {
        Poco::Net::initializeSSL();
        return Poco::Net::Context::Ptr(new Poco::Net::Context(
            Poco::Net::Context::TLS_CLIENT_USE, "", Poco::Net::Context::VERIFY_RELAXED, 9, true));
    }();
    return context;
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

S3Client::~S3Client() = default;

uint64_t S3Client::requests_sent() const {
    std::lock_guard lock(mutex_);
    return requests_;
}

std::unique_ptr<Poco::Net::HTTPClientSession> S3Client::take_session() {
    {
        std::lock_guard lock(mutex_);
        ++requests_;
        if (!idle_.empty()) {
            auto session = std::move(idle_.back());
            idle_.pop_back();
            return session;
        }
    }
    const auto host = settings_.request_host();
    std::unique_ptr<Poco::Net::HTTPClientSession> session;
    if (settings_.scheme == "https") {
        session =
            std::make_unique<Poco::Net::HTTPSClientSession>(host, settings_.port, tls_context());
    } else {
        session = std::make_unique<Poco::Net::HTTPClientSession>(host, settings_.port);
    }
    const Poco::Timespan timeout(settings_.timeout_ms * 1000);
    session->setTimeout(timeout, timeout, timeout);
    session->setKeepAlive(true);
    session->setKeepAliveTimeout(Poco::Timespan(idle_reconnect_seconds, 0));
    return session;
}

void S3Client::drop_idle_sessions() {
    std::lock_guard lock(mutex_);
    idle_.clear();
}

void S3Client::give_back(std::unique_ptr<Poco::Net::HTTPClientSession> session) {
    std::lock_guard lock(mutex_);
    if (idle_.size() < max_idle_sessions) {
        idle_.push_back(std::move(session));
    }
}

S3Response S3Client::attempt(const std::string& method, const std::string& name,
                             const S3Pairs& query, const S3Pairs& headers, std::string_view body,
                             const std::string& payload_hash) {
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
    const auto authorization =
        sigv4::authorization(signed_request, settings_.credentials, settings_.scope, amz_date);

    Poco::Net::HTTPRequest request(
        method, sigv4::uri_encode(signed_request.path, false) + query_string(query),
        Poco::Net::HTTPMessage::HTTP_1_1);
    for (const auto& [header_name, value] : signed_request.headers) {
        if (header_name == "host") {
            request.setHost(value);
        } else {
            request.set(header_name, value);
        }
    }
    request.set("Authorization", authorization);
    request.setKeepAlive(true);
    if (method == "PUT" || method == "POST" || !body.empty()) {
        request.setContentLength(static_cast<std::streamsize>(body.size()));
    }

    auto session = take_session();
    std::ostream& out = session->sendRequest(request);
    out.write(body.data(), static_cast<std::streamsize>(body.size()));
    Poco::Net::HTTPResponse response;
    std::istream& in = session->receiveResponse(response);
    S3Response result;
    result.status = static_cast<int>(response.getStatus());
    for (const auto& [header_name, value] : response) {
        std::string lower = header_name;
        std::transform(lower.begin(), lower.end(), lower.begin(),
                       [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        result.headers[lower] = value;
    }
    if (method != "HEAD") {
        Poco::StreamCopier::copyToString(in, result.body);
    }
    if (response.getKeepAlive()) {
        give_back(std::move(session));
    }
    return result;
}

S3Response S3Client::send(const std::string& method, const std::string& name, const S3Pairs& query,
                          const S3Pairs& headers, std::string_view body) {
    const std::string payload_hash = crypto::sha256_hex(body);
    thread_local std::mt19937 random{std::random_device{}()};
    std::string last_failure;
    int last_status = 0;
    for (int attempt_number = 0; attempt_number < settings_.max_attempts; ++attempt_number) {
        if (attempt_number > 0) {
            const int64_t base = settings_.retry_base_ms << (attempt_number - 1);
            std::uniform_int_distribution<int64_t> jitter(0, base / 2 + 1);
            std::this_thread::sleep_for(std::chrono::milliseconds(base + jitter(random)));
        }
        try {
            const int64_t started = now_ms();
            auto response = attempt(method, name, query, headers, body, payload_hash);
            if (log_ != nullptr) {
                log_->debug("blobs.s3.request", {{"method", method},
                                                 {"object", name},
                                                 {"status", std::to_string(response.status)},
                                                 {"bytes_out", std::to_string(body.size())},
                                                 {"bytes_in", std::to_string(response.body.size())},
                                                 {"ms", std::to_string(now_ms() - started)}});
            }
            if (!is_temporary(response.status)) {
                return response;
            }
            last_status = response.status;
            last_failure = "HTTP " + std::to_string(response.status) + " " + response.error_code();
        } catch (const Poco::Exception& error) {
            last_failure = error.displayText();
            drop_idle_sessions();  // the server went away: its other connections are gone too
        } catch (const std::exception& error) {
            last_failure = error.what();
            drop_idle_sessions();
        }
        if (log_ != nullptr) {
            log_->warn("blobs.s3.attempt_failed", {{"method", method},
                                                   {"object", name},
                                                   {"attempt", std::to_string(attempt_number + 1)},
                                                   {"error", last_failure}});
        }
    }
    throw S3Error("S3 " + method + " " + settings_.origin() + settings_.object_path(name) +
                      " failed after " + std::to_string(settings_.max_attempts) +
                      " attempts: " + last_failure,
                  last_status, "");
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
