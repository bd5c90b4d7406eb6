#include "loupe/http/http_client.hpp"

#include <Poco/Exception.h>
#include <Poco/Net/Context.h>
#include <Poco/Net/DNS.h>
#include <Poco/Net/HTTPClientSession.h>
#include <Poco/Net/HTTPRequest.h>
#include <Poco/Net/HTTPResponse.h>
#include <Poco/Net/HTTPSClientSession.h>
#include <Poco/Net/IPAddress.h>
#include <Poco/Net/NetException.h>
#include <Poco/Net/SSLManager.h>
#include <Poco/Net/SecureStreamSocket.h>
#include <Poco/URI.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <istream>
#include <mutex>
#include <random>
#include <thread>

#include "http/client/proxy_environment.hpp"
#include "loupe/text/strings.hpp"
#include "loupe/version.hpp"

namespace loupe {
namespace {

using Session = Poco::Net::HTTPClientSession;

/// A connection idle longer than this is opened again before use: servers close idle
/// keep-alive connections after a few seconds (node: 5 s, nginx: 75 s), and a request sent on
/// a closed one fails with no answer.
constexpr int idle_reconnect_seconds = 3;

/// Where a request goes: the connection it needs and the request target as written.
struct Target {
    std::string scheme;
    std::string host;
    uint16_t port = 0;
    std::string path;  ///< path and query, as written in the URL
    std::optional<ProxyAddress> proxy;

    std::string pool_key() const {
        return scheme + "://" + host + ":" + std::to_string(port) +
               (proxy ? " via " + proxy->host + ":" + std::to_string(proxy->port) : "");
    }
};

/// A failure that another attempt would meet again (a bad URL, an answer over the cap).
class FinalError : public HttpTransportError {
public:
    using HttpTransportError::HttpTransportError;
};

/// The address policy refused the host.
class RefusedAddress : public FinalError {
public:
    using FinalError::FinalError;
};

std::optional<std::string> environment(const char* name) {
    const char* value = std::getenv(name);  // NOLINT(concurrency-mt-unsafe): read-only use
    return value == nullptr ? std::nullopt : std::optional<std::string>(value);
}

Target target_of(const std::string& url, bool use_proxy) {
    Target target;
    try {
        const Poco::URI uri(url);
        target.scheme = to_lower(uri.getScheme());
        target.host = uri.getHost();
        target.port = uri.getPort();
    } catch (const Poco::SyntaxException& error) {
        throw FinalError("invalid URL " + url + ": " + error.displayText());
    }
    if ((target.scheme != "http" && target.scheme != "https") || target.host.empty()) {
        throw FinalError("unsupported URL " + url + " (http:// or https:// with a host)");
    }
    const auto authority = url.find("://") + 3;
    const auto path = url.find_first_of("/?#", authority);
    target.path = path == std::string::npos ? "/" : url.substr(path, url.find('#', path) - path);
    if (target.path.starts_with('?')) {
        target.path.insert(0, "/");
    }
    if (use_proxy) {
        target.proxy = proxy_for(target.scheme, target.host, environment);
    }
    return target;
}

bool is_idempotent(const std::string& method) {
    return method == "GET" || method == "HEAD" || method == "PUT" || method == "DELETE" ||
           method == "OPTIONS";
}

bool is_temporary(int status) {
    return status == 429 || status == 500 || status == 502 || status == 503 || status == 504;
}

/// The time left before `deadline`, at most `cap`; HttpTransportError once it has passed.
Poco::Timespan time_left(const std::optional<HttpClock::time_point>& deadline,
                         std::chrono::milliseconds cap) {
    auto left = std::chrono::duration_cast<std::chrono::microseconds>(cap);
    if (deadline) {
        const auto until =
            std::chrono::duration_cast<std::chrono::microseconds>(*deadline - HttpClock::now());
        if (until.count() <= 0) {
            throw HttpTransportError("timed out");
        }
        left = std::min(left, until);
    }
    return Poco::Timespan(static_cast<Poco::Timespan::TimeDiff>(left.count()));
}

std::chrono::milliseconds since(HttpClock::time_point start) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(HttpClock::now() - start);
}

}  // namespace

HttpTransportError::~HttpTransportError() = default;
HttpAddressRefused::~HttpAddressRefused() = default;

std::string HttpResponse::header(const std::string& lower_name) const {
    const auto found = headers.find(lower_name);
    return found == headers.end() ? std::string() : found->second;
}

std::optional<Json> HttpResponse::json() const {
    auto parsed = Json::parse(body, nullptr, false);
    if (parsed.is_discarded()) {
        return std::nullopt;
    }
    return parsed;
}

namespace {

/// The TLS context is made for the first HTTPS call: loading the system's CA store costs about
/// a megabyte of memory, which a server that never calls out over HTTPS does not need.
Poco::Net::Context::Ptr make_tls_context(const std::string& ca_file) {
    Poco::Net::Context::Params params;
    params.verificationMode = Poco::Net::Context::VERIFY_STRICT;
    params.loadDefaultCAs = true;  // the system store (ca-certificates)
    params.caLocation = ca_file;
    params.cipherList = "HIGH:!aNULL:!eNULL:!MD5:!RC4";
    try {
        Poco::Net::Context::Ptr context =
            new Poco::Net::Context(Poco::Net::Context::TLS_CLIENT_USE, params);
        context->requireMinimumProtocol(Poco::Net::Context::PROTO_TLSV1_2);
        return context;
    } catch (const Poco::Exception& error) {
        throw FinalError("CA file " + ca_file + ": " + error.displayText());
    }
}

}  // namespace

struct HttpClient::State {
    HttpClientSettings settings;
    std::string user_agent;

    std::once_flag tls_made;
    Poco::Net::Context::Ptr tls;
    std::string tls_failure;  ///< why the context could not be made
    Poco::Net::Context::Ptr tls_context();

    std::mutex mutex;
    std::map<std::string, std::vector<std::unique_ptr<Session>>> idle;
    std::size_t idle_count = 0;
    uint64_t attempts = 0;

    std::unique_ptr<Session> take(const Target& target);
    std::unique_ptr<Session> pinned(const Target& target, const AddressPolicy& policy);
    void give_back(const Target& target, std::unique_ptr<Session> session);
    void drop_idle(const Target& target);
    HttpResponse attempt(const Target& target, const HttpRequest& request,
                         const HttpCallOptions& options);
};

Poco::Net::Context::Ptr HttpClient::State::tls_context() {
    std::call_once(tls_made, [this] {
        try {
            tls = make_tls_context(settings.ca_file);
        } catch (const FinalError& error) {
            tls_failure = error.what();
        }
    });
    if (!tls) {
        throw FinalError(tls_failure);
    }
    return tls;
}

std::unique_ptr<Session> HttpClient::State::take(const Target& target) {
    {
        std::lock_guard lock(mutex);
        ++attempts;
        auto& sessions = idle[target.pool_key()];
        if (!sessions.empty()) {
            auto session = std::move(sessions.back());
            sessions.pop_back();
            --idle_count;
            return session;
        }
    }
    std::unique_ptr<Session> session;
    if (target.scheme == "https") {
        session = std::make_unique<Poco::Net::HTTPSClientSession>(target.host, target.port,
                                                                  tls_context());
    } else {
        session = std::make_unique<Session>(target.host, target.port);
    }
    if (target.proxy) {
        Session::ProxyConfig proxy;
        proxy.host = target.proxy->host;
        proxy.port = target.proxy->port;
        proxy.username = target.proxy->username;
        proxy.password = target.proxy->password;
        session->setProxyConfig(proxy);
    }
    session->setKeepAlive(true);
    session->setKeepAliveTimeout(Poco::Timespan(idle_reconnect_seconds, 0));
    return session;
}

std::unique_ptr<Session> HttpClient::State::pinned(const Target& target,
                                                   const AddressPolicy& policy) {
    std::vector<Poco::Net::IPAddress> addresses;
    Poco::Net::IPAddress literal;
    if (Poco::Net::IPAddress::tryParse(target.host, literal)) {
        addresses.push_back(literal);
    } else {
        addresses = Poco::Net::DNS::hostByName(target.host).addresses();  // may throw: retried
    }
    if (addresses.empty()) {
        throw FinalError("no address for " + target.host);
    }
    for (const auto& address : addresses) {
        if (const auto refusal = policy.refusal(address.toString())) {
            throw RefusedAddress("will not connect to " + target.host + ": " + *refusal);
        }
    }
    if (target.proxy) {
        return take(target);
    }
    {
        std::lock_guard lock(mutex);
        ++attempts;
    }
    // The session connects to the checked address; HTTPS still sends the host's name (SNI) and
    // verifies the certificate against it.
    // As Poco's own resolution does: the first IPv4 address, else the first one.
    const auto chosen = std::find_if(addresses.begin(), addresses.end(), [](const auto& address) {
        return address.family() == Poco::Net::IPAddress::IPv4;
    });
    const std::string pinned_host =
        (chosen == addresses.end() ? addresses.front() : *chosen).toString();
    std::unique_ptr<Session> session;
    if (target.scheme == "https") {
        session = std::make_unique<Poco::Net::HTTPSClientSession>(pinned_host, target.port,
                                                                  tls_context());
        Poco::Net::SecureStreamSocket(session->socket()).setPeerHostName(target.host);
    } else {
        session = std::make_unique<Session>(pinned_host, target.port);
    }
    session->setKeepAlive(true);
    session->setKeepAliveTimeout(Poco::Timespan(idle_reconnect_seconds, 0));
    return session;
}

void HttpClient::State::give_back(const Target& target, std::unique_ptr<Session> session) {
    std::lock_guard lock(mutex);
    if (idle_count < settings.max_idle_connections) {
        idle[target.pool_key()].push_back(std::move(session));
        ++idle_count;
    }
}

void HttpClient::State::drop_idle(const Target& target) {
    std::lock_guard lock(mutex);
    auto& sessions = idle[target.pool_key()];
    idle_count -= sessions.size();
    sessions.clear();
}

HttpResponse HttpClient::State::attempt(const Target& target, const HttpRequest& request,
                                        const HttpCallOptions& options) {
    const bool pinned_call = options.address_policy != nullptr;
    auto session = pinned_call ? pinned(target, *options.address_policy) : take(target);
    const auto connect = time_left(options.deadline, options.connect_timeout);
    // Every read and write gets the I/O timeout, or less when the deadline is nearer.
    const auto refresh_timeouts = [&] {
        const auto io = time_left(options.deadline, options.io_timeout);
        session->setTimeout(connect, io, io);
    };
    refresh_timeouts();

    Poco::Net::HTTPRequest outgoing(request.method, target.path, Poco::Net::HTTPMessage::HTTP_1_1);
    outgoing.set("User-Agent", user_agent);
    for (const auto& [name, value] : request.headers) {
        if (equals_ignoring_case(name, "host")) {
            outgoing.setHost(value);
        } else {
            outgoing.set(name, value);
        }
    }
    if (!request.body.empty() || request.method == "POST" || request.method == "PUT" ||
        request.method == "PATCH") {
        outgoing.setContentLength(static_cast<std::streamsize>(request.body.size()));
    }
    if (pinned_call && !outgoing.has("Host")) {
        outgoing.setHost(target.host, target.port);  // the session knows only the address
    }
    outgoing.setKeepAlive(true);

    std::ostream& body = session->sendRequest(outgoing);
    body.exceptions(std::ios::badbit);
    body.write(request.body.data(), static_cast<std::streamsize>(request.body.size()));
    refresh_timeouts();
    Poco::Net::HTTPResponse answer;
    std::istream& in = session->receiveResponse(answer);
    in.exceptions(std::ios::badbit);  // a failed read rethrows instead of ending the body

    HttpResponse response;
    response.status = static_cast<int>(answer.getStatus());
    for (const auto& [name, value] : answer) {
        auto& slot = response.headers[to_lower(name)];
        slot += (slot.empty() ? "" : ", ") + value;
    }
    if (request.method != "HEAD") {
        std::string buffer(64 * 1024, '\0');
        while (in) {
            refresh_timeouts();
            in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
            response.body.append(buffer.data(), static_cast<std::size_t>(in.gcount()));
            if (response.body.size() > options.max_response_bytes) {
                throw FinalError("answer larger than " +
                                 std::to_string(options.max_response_bytes) + " bytes");
            }
        }
    }
    if (answer.getKeepAlive() && !pinned_call) {
        give_back(target, std::move(session));
    }
    return response;
}

HttpClient::HttpClient(HttpClientSettings settings) : state_(std::make_unique<State>()) {
    static std::once_flag ssl_initialized;
    std::call_once(ssl_initialized, [] { Poco::Net::initializeSSL(); });
    state_->user_agent =
        settings.user_agent.empty() ? std::string("loupe/") + LOUPE_VERSION : settings.user_agent;
    // A CA file that cannot be read stops the start, as it would fail every HTTPS call.
    if (!settings.ca_file.empty() && ::access(settings.ca_file.c_str(), R_OK) != 0) {
        throw std::runtime_error("CA file " + settings.ca_file +
                                 ": cannot be read: " + std::strerror(errno));
    }
    state_->settings = std::move(settings);
}

HttpClient::~HttpClient() = default;

HttpResponse HttpClient::send(const HttpRequest& request, const HttpCallOptions& options) const {
    try {
        return send_once_or_more(request, options);
    } catch (const RefusedAddress& error) {
        throw HttpAddressRefused(request.method + " " + request.url + ": " + error.what());
    } catch (const FinalError& error) {
        throw HttpTransportError(request.method + " " + request.url + ": " + error.what());
    }
}

HttpResponse HttpClient::send_once_or_more(const HttpRequest& request,
                                           const HttpCallOptions& options) const {
    const Target target = target_of(request.url, state_->settings.proxy_from_environment);
    const bool idempotent = options.idempotent.value_or(is_idempotent(request.method));
    const int attempts = idempotent ? std::max(1, options.max_attempts) : 1;
    thread_local std::mt19937 random{std::random_device{}()};
    for (int number = 1;; ++number) {
        const auto started = HttpClock::now();
        HttpAttempt report{request, number};
        std::optional<HttpResponse> response;
        try {
            response = state_->attempt(target, request, options);
            report.status = response->status;
            report.bytes_in = response->body.size();
        } catch (const FinalError&) {
            state_->drop_idle(target);
            throw;
        } catch (const Poco::TimeoutException&) {
            report.error = "timed out";
        } catch (const Poco::Exception& error) {
            report.error = error.displayText();
        } catch (const std::exception& error) {  // a stream failure, time_left's timeout
            report.error = error.what();
        }
        if (!response) {
            state_->drop_idle(target);  // the server went away: its other connections too
        }
        report.elapsed = since(started);
        if (options.on_attempt) {
            options.on_attempt(report);
        }
        bool again = number < attempts && (!response || is_temporary(response->status));
        std::chrono::milliseconds pause{0};
        if (again) {
            const auto base = options.retry_base * (int64_t{1} << std::min(number - 1, 20));
            std::uniform_int_distribution<int64_t> jitter(0, base.count() / 2);
            pause = base + std::chrono::milliseconds(jitter(random));
            again = !options.deadline || HttpClock::now() + pause < *options.deadline;
        }
        if (!again) {
            if (!response) {
                throw HttpTransportError(request.method + " " + request.url + ": " + report.error);
            }
            return std::move(*response);
        }
        std::this_thread::sleep_for(pause);
    }
}

HttpResponse HttpClient::send_json(std::string method, std::string url, const Json& body,
                                   HttpHeaders headers, const HttpCallOptions& options) const {
    const std::string text = body.is_null() ? std::string() : body.dump();
    headers.emplace_back("Accept", "application/json");
    if (!body.is_null()) {
        headers.emplace_back("Content-Type", "application/json");
    }
    return send(HttpRequest{std::move(method), std::move(url), std::move(headers), text}, options);
}

HttpResponse HttpClient::get_json(std::string url, HttpHeaders headers,
                                  const HttpCallOptions& options) const {
    return send_json("GET", std::move(url), nullptr, std::move(headers), options);
}

uint64_t HttpClient::attempts_sent() const {
    std::lock_guard lock(state_->mutex);
    return state_->attempts;
}

std::string url_path_segment(std::string_view text) {
    std::string encoded;
    Poco::URI::encode(std::string(text), "/?#[]@!$&'()*+,;=%: ", encoded);
    return encoded;
}

std::string url_query_component(std::string_view text) {
    static constexpr char hex[] = "0123456789ABCDEF";
    std::string encoded;
    encoded.reserve(text.size());
    for (const char raw : text) {
        const auto c = static_cast<unsigned char>(raw);
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
            c == '-' || c == '.' || c == '_' || c == '~') {
            encoded.push_back(raw);
        } else {
            encoded += {'%', hex[c >> 4], hex[c & 0xF]};
        }
    }
    return encoded;
}

}  // namespace loupe
