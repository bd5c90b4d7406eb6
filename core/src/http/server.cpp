#include "http/server.hpp"

#include <arpa/inet.h>
#include <civetweb.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

#include "http/accept_loop_wake.hpp"
#include "http/civet_errors.hpp"
#include "http/civet_exchange.hpp"
#include "http/dispatcher.hpp"
#include "http/handler_pool.hpp"
#include "http/socket_lookup.hpp"

namespace loupe {
namespace {

// How long a kept-alive connection may idle: longer than Node's 4 s client default (the Argos
// CLI uses undici), so the client, not the server, closes idle sockets and never races us.
constexpr const char* keep_alive_timeout_ms = "5000";
// civetweb's own timeout: writing a response to a client that does not read it. Reading heads
// and bodies is bounded tighter by the ConnectionGuard.
constexpr const char* request_timeout_ms = "30000";
// civetweb's buffer for a request head. Heads past max_request_field_bytes (16 KiB) or
// max_request_target_bytes (8 KiB) still fit, so they get a precise 431 or 414; civetweb
// itself can only answer a 400 for a head that overflows this buffer.
constexpr const char* max_request_bytes = "65536";
// Accepted connections waiting for a free connection thread, and the kernel's queue before it.
constexpr const char* connection_queue = "128";
constexpr const char* listen_backlog = "1024";
constexpr std::size_t handler_stack_bytes = 8 * 1024 * 1024;

std::string listening_port(const ServerOptions& options) {
    const std::string port = std::to_string(options.port);
    if (options.listen_address.find(':') != std::string::npos) {
        return "[" + options.listen_address + "]:" + port;  // IPv6
    }
    return options.listen_address + ":" + port;
}

/// Opens and drops a connection to the listener. civetweb's accept loop polls in 2 s steps
/// and only then sees that mg_stop() was called; a connection wakes it at once.
void poke_listener(const std::string& listen_address, int port) {
    const bool ipv6 = listen_address.find(':') != std::string::npos;
    const int fd = ::socket(ipv6 ? AF_INET6 : AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        return;
    }
    if (ipv6) {
        sockaddr_in6 address{};
        address.sin6_family = AF_INET6;
        address.sin6_port = htons(static_cast<uint16_t>(port));
        const bool any = listen_address == "::" || listen_address == "[::]";
        if (any || ::inet_pton(AF_INET6, listen_address.c_str(), &address.sin6_addr) != 1) {
            address.sin6_addr = in6addr_loopback;
        }
        ::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address);
    } else {
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_port = htons(static_cast<uint16_t>(port));
        if (listen_address == "0.0.0.0" ||
            ::inet_pton(AF_INET, listen_address.c_str(), &address.sin_addr) != 1) {
            address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        }
        ::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address);
    }
    ::close(fd);
}

void init_civetweb_once() {
    static std::once_flag once;
    std::call_once(once, [] { mg_init_library(0); });
}

}  // namespace

struct HttpServer::Impl {
    Impl(ServerOptions server_options, const Router& router, const Authenticator& authenticator,
         Logger& logger)
        : options(std::move(server_options)),
          log(logger),
          dispatcher(DispatchOptions{options.max_json_bytes, options.public_url, options.metrics,
                                     &draining, options.max_json_values, options.access,
                                     options.api_prefix, options.response_headers},
                     router, authenticator, logger),
          guard(budgeted(options.guard, options.max_connections), logger) {}

    static GuardOptions budgeted(GuardOptions guard, int max_connections) {
        guard.connection_budget = std::max(max_connections, 1);
        return guard;
    }

    static Impl& of(const mg_connection* connection) {
        return *static_cast<Impl*>(mg_get_user_data(mg_get_context(connection)));
    }

    static int init_connection(const mg_connection* connection, void** data) {
        *data = nullptr;
        of(connection).guard.connection_opened();
        return 0;
    }

    static void connection_close(const mg_connection* connection) {
        if (const mg_request_info* info = mg_get_request_info(connection)) {
            try {
                of(connection).guard.connection_closing(endpoints_of(*info));
            } catch (...) {  // nothing may unwind into civetweb's C frames
            }
        }
    }

    static ConnectionGuard::Verdict verdict(const mg_connection* connection) {
        const mg_request_info* info = mg_get_request_info(connection);
        return info ? of(connection).guard.verdict(endpoints_of(*info))
                    : ConnectionGuard::Verdict::none;
    }

    static int http_error(mg_connection* connection, int status, const char* message) {
        try {
            switch (verdict(connection)) {
                case ConnectionGuard::Verdict::refused:
                    return answer_error_and_close(connection, 503, too_many_connections);
                case ConnectionGuard::Verdict::timed_out:
                    return answer_error_and_close(
                        connection, 408, "Request Timeout: the request head took too long");
                case ConnectionGuard::Verdict::none:
                    break;
            }
        } catch (...) {  // fall back to civetweb's own status
        }
        return answer_civetweb_error(connection, status, message);
    }

    static int begin_request(mg_connection* connection) {
        try {
            Impl& impl = of(connection);
            const ConnectionEndpoints endpoints = endpoints_of(*mg_get_request_info(connection));
            impl.guard.head_received(endpoints);
            if (impl.guard.verdict(endpoints) == ConnectionGuard::Verdict::refused) {
                answer_error_and_close(connection, 503, too_many_connections);
                return 503;
            }
            const InProgress in_progress(impl);
            CivetExchange exchange(connection, &impl.guard);
            int status = 500;
            impl.pool->run([&] { status = impl.dispatcher.handle(exchange); });
            return status;
        } catch (...) {  // nothing may unwind into civetweb's C frames
            mg_send_http_error(connection, 500, "%s", "Internal server error");
            return 500;
        }
    }

    static int log_message(const mg_connection* connection, const char* message) {
        try {
            Impl& impl = of(connection);
            impl.log.warn("http.civetweb", {{"message", message ? message : ""}});
            if (impl.starting) {  // the reason a start fails
                const std::lock_guard lock(impl.start_messages_mutex);
                impl.start_messages += (impl.start_messages.empty() ? "" : "; ");
                impl.start_messages += message ? message : "";
            }
        } catch (...) {  // logging must not unwind into civetweb either
        }
        return 1;  // handled: civetweb writes nothing itself
    }

    /// Counts a request from its head to its response, for drain().
    class InProgress {
    public:
        explicit InProgress(Impl& impl) : impl_(impl) {
            const std::lock_guard lock(impl_.requests_mutex);
            ++impl_.requests_in_progress;
        }
        ~InProgress() {
            const std::lock_guard lock(impl_.requests_mutex);
            if (--impl_.requests_in_progress == 0) {
                impl_.requests_done.notify_all();
            }
        }
        InProgress(const InProgress&) = delete;
        InProgress& operator=(const InProgress&) = delete;

    private:
        Impl& impl_;
    };

    /// civetweb (1.15) can only stop listening by stopping altogether. Its accept loop polls
    /// the listening descriptor: that descriptor number is pointed at an eventfd that never
    /// becomes readable (until stop() writes to it to wake the loop), and the socket itself
    /// is shut, which refuses new connections at once. The loop's poll in progress is then
    /// interrupted, so that it polls the eventfd from now on (an accept() on the eventfd
    /// fails, which civetweb ignores).
    void stop_listening() {
        const int placeholder = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
        if (placeholder < 0) {
            log.warn("http.drain", {{"error", "cannot create an eventfd; still listening"}});
            return;
        }
        for (const int fd : listening_sockets(port)) {
            const int socket = ::fcntl(fd, F_DUPFD_CLOEXEC, 0);
            if (::dup3(placeholder, fd, O_CLOEXEC) < 0) {
                if (socket >= 0) {
                    ::close(socket);
                }
                continue;
            }
            if (socket >= 0) {
                ::shutdown(socket, SHUT_RDWR);
                ::close(socket);
            }
        }
        listener_placeholder = placeholder;
        interrupt_accept_loops();
    }

    static constexpr const char* too_many_connections =
        "Service Unavailable: too many connections from this client";

    ServerOptions options;
    Logger& log;
    Dispatcher dispatcher;
    ConnectionGuard guard;  // outlives civetweb's callbacks: mg_stop() returns before it goes
    std::unique_ptr<HandlerPool> pool;
    mg_context* context = nullptr;
    int port = 0;
    std::atomic<bool> draining{false};
    std::mutex requests_mutex;
    std::condition_variable requests_done;
    int requests_in_progress = 0;
    int listener_placeholder = -1;  ///< the eventfd in place of the listening socket
    std::atomic<bool> starting{false};
    std::mutex start_messages_mutex;
    std::string start_messages;  ///< what civetweb said while starting ("cannot bind to ...")
};

HttpServer::HttpServer(ServerOptions options, const Router& router,
                       const Authenticator& authenticator, Logger& log)
    : impl_(std::make_unique<Impl>(std::move(options), router, authenticator, log)) {}

HttpServer::~HttpServer() {
    stop();
}

int HttpServer::start() {
    if (impl_->context != nullptr) {
        throw std::logic_error("the HTTP server is already started");
    }
    init_civetweb_once();
    const ServerOptions& options = impl_->options;
    const std::string ports = listening_port(options);
    const std::string threads = std::to_string(std::max(options.threads, 1));
    const std::string connections = std::to_string(std::max(options.max_connections, 1));
    // clang-format off
    std::vector<const char*> settings = {
        "listening_ports", ports.c_str(),
        "num_threads", connections.c_str(),
        "connection_queue", connection_queue,
        "listen_backlog", listen_backlog,
        "max_request_size", max_request_bytes,
        // An absolute-form target ("GET http://host:port/path") naming this port is served
        // like its path, whatever the host (RFC 9112 §3.2.2).
        "enable_auth_domain_check", "no",
        "enable_keep_alive", "yes",
        // Head and body go out in separate writes: without this, Nagle's algorithm and the
        // client's delayed ACK hold every kept-alive response for about 40 ms.
        "tcp_nodelay", "1",
        "keep_alive_timeout_ms", keep_alive_timeout_ms,
        "request_timeout_ms", request_timeout_ms,
        // Captures are percent-decoded segment by segment, so "%2F" stays inside one.
        "decode_url", "no",
    };
    // clang-format on
    if (!options.access_log.empty()) {
        settings.push_back("access_log_file");
        settings.push_back(options.access_log.c_str());
    }
    settings.push_back(nullptr);

    impl_->pool = std::make_unique<HandlerPool>(std::max(options.threads, 1), handler_stack_bytes);
    mg_callbacks callbacks{};
    callbacks.begin_request = &Impl::begin_request;
    callbacks.log_message = &Impl::log_message;
    callbacks.init_connection = &Impl::init_connection;
    callbacks.connection_close = &Impl::connection_close;
    callbacks.http_error = &Impl::http_error;
    mg_init_data init{&callbacks, impl_.get(), settings.data()};
    unsigned error_code = 0;
    char error_text[256] = "";
    mg_error_data error{&error_code, error_text, sizeof error_text};
    impl_->starting = true;
    impl_->context = mg_start2(&init, &error);
    impl_->starting = false;
    if (impl_->context == nullptr) {
        impl_->pool.reset();
        const std::lock_guard lock(impl_->start_messages_mutex);
        const std::string reason = !impl_->start_messages.empty() ? impl_->start_messages
                                   : error_text[0]                ? error_text
                                                                  : "unknown civetweb error";
        throw std::runtime_error("cannot start the HTTP server on " + ports + ": " + reason);
    }
    mg_server_port bound[4];
    const int count = mg_get_server_ports(impl_->context, 4, bound);
    if (count < 1) {
        stop();
        throw std::runtime_error("the HTTP server on " + ports + " reports no listening port");
    }
    impl_->port = bound[0].port;
    impl_->guard.watch_port(impl_->port);
    impl_->log.info("http.listening", {{"listener", options.name},
                                       {"address", options.listen_address},
                                       {"port", std::to_string(impl_->port)},
                                       {"threads", threads},
                                       {"max_connections", connections}});
    return impl_->port;
}

void HttpServer::stop() {
    if (impl_->context != nullptr) {
        std::atomic<bool> stopped{false};
        std::thread waker([&] {
            while (!stopped) {
                if (impl_->listener_placeholder >= 0) {
                    const uint64_t one = 1;
                    [[maybe_unused]] const auto written =
                        ::write(impl_->listener_placeholder, &one, sizeof one);
                } else {
                    poke_listener(impl_->options.listen_address, impl_->port);
                }
                std::this_thread::sleep_for(std::chrono::milliseconds(20));
            }
        });
        mg_stop(impl_->context);  // waits for the request threads to finish
        stopped = true;
        waker.join();
        impl_->context = nullptr;
        impl_->port = 0;
        if (impl_->listener_placeholder >= 0) {
            ::close(impl_->listener_placeholder);
            impl_->listener_placeholder = -1;
        }
    }
    impl_->pool.reset();
}

int HttpServer::drain(std::chrono::steady_clock::time_point deadline) {
    if (impl_->context == nullptr) {
        return 0;
    }
    impl_->draining = true;
    impl_->stop_listening();
    int unfinished = 0;
    {
        std::unique_lock lock(impl_->requests_mutex);
        impl_->requests_done.wait_until(lock, deadline,
                                        [&] { return impl_->requests_in_progress == 0; });
        unfinished = impl_->requests_in_progress;
    }
    if (unfinished > 0) {
        impl_->log.warn("http.drain_timeout", {{"requests_cut_short", std::to_string(unfinished)}});
    }
    stop();
    return unfinished;
}

int HttpServer::bound_port() const {
    return impl_->port;
}

}  // namespace loupe
