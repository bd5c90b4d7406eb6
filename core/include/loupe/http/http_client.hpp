#pragma once
// Outgoing HTTP(S) for every plugin and the core: the git providers, the S3 blob store,
// webhooks, notifications, OpenID Connect. One call is bounded three ways: a connect timeout, a
// timeout on every read and write, and an optional deadline for the whole call, retries
// included (a server that stalls cannot hold a request or a job longer than its budget). An
// answer larger than the cap is abandoned. Idempotent calls are retried with exponential
// backoff and jitter after a network failure or a temporary status (429, 500, 502, 503, 504);
// other calls are sent once. HTTPS verifies the certificate chain and the host name against
// the system trust store, plus an optional CA file. HTTPS_PROXY / HTTP_PROXY / NO_PROXY from
// the environment are honoured (never for loopback hosts). Keep-alive connections are reused.
// THREADS: thread-safe; one client is meant to be shared.
//
//     HttpClient http;
//     const auto reply = http.send_json("POST", url, Json{{"text", "hi"}}, {{"Authorization",
//     auth}},
//                                       {.deadline = deadline_in(std::chrono::seconds(10))});
//     if (reply.status == 200) { const Json body = reply.json().value_or(nullptr); ... }

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "loupe/export.hpp"
#include "loupe/http/address_policy.hpp"
#include "loupe/json.hpp"

namespace loupe {

using HttpClock = std::chrono::steady_clock;
using HttpHeaders = std::vector<std::pair<std::string, std::string>>;

/// `Clock::now()` plus `timeout`: a deadline several calls can share.
inline HttpClock::time_point deadline_in(std::chrono::milliseconds timeout) {
    return HttpClock::now() + timeout;
}

struct HttpRequest {
    std::string method = "GET";
    /// Absolute http:// or https:// URL. Its path and query are sent exactly as written (no
    /// decoding and encoding again: "group%2Fapp" stays one segment).
    std::string url{};
    HttpHeaders headers{};    ///< a "Host" header replaces the one derived from the URL
    std::string_view body{};  ///< lent for the call
};

struct LOUPE_API HttpResponse {
    int status = 0;
    std::map<std::string, std::string> headers;  ///< names in lower case
    std::string body;

    /// A header by its lower-case name, "" when absent.
    std::string header(const std::string& lower_name) const;
    /// The body parsed as JSON; nullopt when it is not JSON.
    std::optional<Json> json() const;
    bool ok() const { return status >= 200 && status < 300; }
};

/// The server could not be reached, refused TLS, did not answer in time or answered more than
/// the cap: there is no HTTP status to report.
class LOUPE_API HttpTransportError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
    ~HttpTransportError() override;
};

/// The call's address policy refused every address of the host (see
/// HttpCallOptions::address_policy): sending again would meet the same refusal.
class LOUPE_API HttpAddressRefused : public HttpTransportError {
public:
    using HttpTransportError::HttpTransportError;
    ~HttpAddressRefused() override;
};

/// What one attempt of a call did, for logs and metrics.
struct HttpAttempt {
    const HttpRequest& request;
    int number = 1;       ///< 1 for the first attempt
    int status = 0;       ///< 0 when no answer came
    std::string error{};  ///< why it failed ("" when it answered)
    std::size_t bytes_in = 0;
    std::chrono::milliseconds elapsed{0};
};

struct HttpCallOptions {
    std::chrono::milliseconds connect_timeout{10'000};
    /// The longest wait for any one read or write.
    std::chrono::milliseconds io_timeout{30'000};
    /// The end of the whole call, retries and pauses included; none: only the timeouts bound it.
    std::optional<HttpClock::time_point> deadline{};
    /// An answer larger than this (headers excluded) fails with HttpTransportError.
    std::size_t max_response_bytes = 16 * 1024 * 1024;
    /// Attempts of an idempotent call; any other call is sent once.
    int max_attempts = 3;
    /// The pause before the second attempt, doubled for each one after (plus up to half of it
    /// at random).
    std::chrono::milliseconds retry_base{200};
    /// Whether sending the call twice does no harm; by default GET, HEAD, PUT, DELETE, OPTIONS.
    std::optional<bool> idempotent{};
    /// Called after every attempt (on the calling thread).
    std::function<void(const HttpAttempt&)> on_attempt{};
    /// For a URL that came from a user: the host's addresses are resolved and every one must
    /// pass the policy (else HttpAddressRefused, not retried), and the call connects to the
    /// address checked (a name that resolves differently a moment later cannot slip past) on a
    /// connection of its own, never reused. Through a proxy the addresses are checked, and the
    /// proxy connects.
    const AddressPolicy* address_policy = nullptr;
};

struct HttpClientSettings {
    std::string
        ca_file{};  ///< extra trusted CAs (PEM file or hashed folder), on top of the system's
    std::string user_agent{};  ///< default "loupe/<version>"
    bool proxy_from_environment = true;
    std::size_t max_idle_connections = 32;
};

class LOUPE_API HttpClient {
public:
    /// Throws std::runtime_error when the CA file cannot be read. The TLS context (the system's
    /// CA store and that file) is made at the first HTTPS call, which fails (without retry)
    /// when the file holds no valid certificate.
    explicit HttpClient(HttpClientSettings settings = {});
    ~HttpClient();
    HttpClient(const HttpClient&) = delete;
    HttpClient& operator=(const HttpClient&) = delete;

    /// Sends the request (retrying as the options allow) and reads the whole answer. Returns
    /// the last answer, whatever its status; throws HttpTransportError when the last attempt got
    /// none.
    HttpResponse send(const HttpRequest& request, const HttpCallOptions& options = {}) const;

    /// `body` as application/json (nothing for a null body), accepting JSON.
    HttpResponse send_json(std::string method, std::string url, const Json& body,
                           HttpHeaders headers = {}, const HttpCallOptions& options = {}) const;
    /// GET accepting JSON.
    HttpResponse get_json(std::string url, HttpHeaders headers = {},
                          const HttpCallOptions& options = {}) const;

    /// Attempts sent so far, for benchmarks and tests.
    uint64_t attempts_sent() const;

private:
    struct State;
    HttpResponse send_once_or_more(const HttpRequest& request,
                                   const HttpCallOptions& options) const;
    std::unique_ptr<State> state_;
};

/// `text` percent-encoded as one path segment ("group/app" → "group%2Fapp").
LOUPE_API std::string url_path_segment(std::string_view text);

/// `text` percent-encoded as one query or form value: everything but the unreserved characters
/// (letters, digits, `-._~`) becomes `%XX`, so `&`, `=`, `+` and spaces never split a value.
LOUPE_API std::string url_query_component(std::string_view text);

}  // namespace loupe
