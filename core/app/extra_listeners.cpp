#include "extra_listeners.hpp"

#include <map>
#include <stdexcept>
#include <thread>

#include "auth/authenticator.hpp"
#include "http/registered_listener.hpp"
#include "http/router.hpp"

namespace loupe {

struct ExtraListeners::Server {
    Server(Runtime& runtime, std::shared_ptr<RegisteredListener> registered,
           const ServerOptions& api)
        : listener(std::move(registered)),
          router(listener->route_table()),
          request_metrics(listener->route_table(), listener->name()),
          // A listener authenticates nobody: no token kind, no session.
          authenticator(runtime.database(), Authenticator::no_token_kinds(),
                        Authenticator::no_sessions()),
          server(options_for(*listener, api, request_metrics), router, authenticator,
                 runtime.log()) {}

    static ServerOptions options_for(const RegisteredListener& listener, const ServerOptions& api,
                                     metrics::RequestMetrics& metrics) {
        const ListenerSpec& spec = listener.spec();
        ServerOptions options = api;
        options.name = spec.name;
        options.listen_address =
            spec.listen_address.empty() ? api.listen_address : spec.listen_address;
        options.port = spec.port;
        options.threads = spec.threads;
        options.max_connections = spec.max_connections;
        options.public_url = listener.public_url();
        options.metrics = &metrics;
        options.api_prefix = false;
        // No access gate: a listener's routes are all public (RegisteredListener refuses any
        // other declaration), and without a gate the dispatcher runs nothing else.
        options.access = nullptr;
        options.response_headers = spec.response_headers;
        return options;
    }

    std::shared_ptr<RegisteredListener> listener;
    Router router;
    metrics::RequestMetrics request_metrics;
    Authenticator authenticator;
    HttpServer server;
    std::string address;
    int port = 0;
};

ExtraListeners::ExtraListeners(Runtime& runtime, const ServerOptions& api) {
    for (const auto& listener : runtime.registries().listeners) {
        servers_.push_back(std::make_unique<Server>(runtime, listener, api));
        servers_.back()->address = listener->spec().listen_address.empty()
                                       ? api.listen_address
                                       : listener->spec().listen_address;
    }
}

ExtraListeners::~ExtraListeners() = default;

void ExtraListeners::start() {
    for (auto& server : servers_) {
        try {
            server->port = server->server.start();
        } catch (const std::exception& error) {
            throw std::runtime_error("listener '" + server->listener->name() + "' of plugin '" +
                                     server->listener->plugin() + "': " + error.what());
        }
        server->listener->set_bound_port(server->port);
    }
}

void ExtraListeners::print(std::ostream& out) const {
    for (const auto& server : servers_) {
        out << "loupe: listener " << server->listener->name() << " at "
            << server->listener->public_url() << " (listening on " << server->address << ":"
            << server->port << ")" << std::endl;
    }
}

void ExtraListeners::drain(std::chrono::steady_clock::time_point deadline) {
    std::vector<std::thread> draining;
    draining.reserve(servers_.size());
    for (auto& server : servers_) {
        draining.emplace_back([&server, deadline] { server->server.drain(deadline); });
    }
    for (auto& thread : draining) {
        thread.join();
    }
}

std::vector<const metrics::RequestMetrics*> ExtraListeners::metrics() const {
    std::vector<const metrics::RequestMetrics*> all;
    for (const auto& server : servers_) {
        all.push_back(&server->request_metrics);
    }
    return all;
}

}  // namespace loupe
