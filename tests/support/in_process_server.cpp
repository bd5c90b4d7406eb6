#include "support/in_process_server.hpp"

#include <atomic>
#include <map>
#include <mutex>
#include <stdexcept>

#include "auth/access_gate.hpp"
#include "auth/authenticator.hpp"
#include "config/config.hpp"
#include "http/dispatcher.hpp"
#include "http/registered_listener.hpp"
#include "http/router.hpp"
#include "identity/bootstrap.hpp"
#include "runtime.hpp"
#include "support/build_paths.hpp"
#include "support/in_process_exchange.hpp"

namespace loupe::test {
namespace {

// What answers each base URL of this process (the API's, a listener's), for the test HTTP
// client.
std::mutex servers_mutex;
std::map<std::string, InProcessEndpoint>& servers() {
    static std::map<std::string, InProcessEndpoint> by_url;
    return by_url;
}

/// http://<name>-<N>.in-process.test, N unique in this process.
std::string next_base_url(const std::string& name) {
    static std::atomic<int> counter{0};
    return "http://" + name + "-" + std::to_string(++counter) + ".in-process.test";
}

std::map<std::string, std::string> config_overrides(const ServerOptions& options,
                                                    const std::string& database_url,
                                                    const std::string& data_dir) {
    std::string enabled;
    for (const auto& plugin : options.plugins) {
        enabled += (enabled.empty() ? "" : ",") + plugin;
    }
    // The test's own output stays readable: warnings and errors only.
    std::map<std::string, std::string> overrides{{"data.dir", data_dir},
                                                 {"db.url", database_url},
                                                 {"plugins.path", tested_plugin_dir()},
                                                 {"plugins.enabled", enabled},
                                                 {"log.level", "warn"}};
    for (const auto& [key, value] : options.settings) {
        overrides[key] = value;
    }
    return overrides;
}

}  // namespace

/// One base URL's request pipeline: the API's, or an extra listener's.
struct InProcessServer::Endpoint {
    std::string base_url;
    std::unique_ptr<Router> router;
    std::unique_ptr<Authenticator> authenticator;
    std::unique_ptr<Dispatcher> dispatcher;
};

// Declared in the order they are built; destroyed in reverse, the Runtime last.
struct InProcessServer::Parts {
    std::unique_ptr<Runtime> runtime;
    std::unique_ptr<AccessGate> access_gate;
    std::vector<std::unique_ptr<Endpoint>> endpoints;  ///< the API's first
};

InProcessServer::InProcessServer(ServerOptions options)
    : options_(std::move(options)),
      base_url_(next_base_url("loupe")),
      parts_(std::make_unique<Parts>()) {
    if (!options_.environment.empty()) {
        throw std::logic_error(
            "an in-process server shares the test's environment: use a "
            "ServerProcess for a server with an environment of its own");
    }
    auto config = Config::load(std::string(LOUPE_TEST_SOURCE_DIR) + "/etc/loupe.properties",
                               config_overrides(options_, database_.url(), data_.path()));
    const std::string public_url = config->get_string("http.public_url", "");
    parts_->runtime = std::make_unique<Runtime>(std::move(config));
    auto& runtime = *parts_->runtime;
    runtime.check_blob_store();
    runtime.load_plugins();
    // The listeners' URLs are final before anything can hand one out.
    for (const auto& listener : runtime.registries().listeners) {
        if (listener->spec().public_url.empty()) {
            listener->set_served_url(next_base_url(listener->name()));
        }
    }
    runtime.migrate();
    if (const auto bootstrap = create_bootstrap_if_empty(runtime.identity(), runtime.data_dir())) {
        project_token_ = bootstrap->project_token;
        personal_token_ = bootstrap->personal_access_token;
    }
    runtime.set_public_url(public_url.empty() ? base_url_ : public_url);
    runtime.run_ready_hooks();
    DispatchOptions api;
    // The same keys and defaults as `loupe serve`.
    api.max_json_bytes = static_cast<std::size_t>(
        runtime.config().get_int("http.max_json_bytes", static_cast<int64_t>(api.max_json_bytes)));
    api.max_json_values = static_cast<std::size_t>(runtime.config().get_int(
        "http.max_json_values", static_cast<int64_t>(default_max_json_values)));
    api.public_url = public_url;
    parts_->access_gate = std::make_unique<AccessGate>(runtime.identity());
    api.access = parts_->access_gate.get();
    auto& api_endpoint = *parts_->endpoints.emplace_back(std::make_unique<Endpoint>());
    api_endpoint.base_url = base_url_;
    api_endpoint.router = std::make_unique<Router>(runtime.registries().routes);
    api_endpoint.authenticator =
        std::make_unique<Authenticator>(runtime.database(), runtime.registries().token_resolvers,
                                        runtime.registries().session_resolvers);
    api_endpoint.dispatcher = std::make_unique<Dispatcher>(
        api, *api_endpoint.router, *api_endpoint.authenticator, runtime.log());
    // Each extra listener as `loupe serve` runs it: its own routes, nobody authenticated, no
    // access gate (its routes are all public), paths as sent, its response headers.
    for (const auto& listener : runtime.registries().listeners) {
        auto& endpoint = *parts_->endpoints.emplace_back(std::make_unique<Endpoint>());
        endpoint.base_url = listener->public_url();
        endpoint.router = std::make_unique<Router>(listener->route_table());
        endpoint.authenticator = std::make_unique<Authenticator>(
            runtime.database(), Authenticator::no_token_kinds(), Authenticator::no_sessions());
        DispatchOptions served = api;
        served.public_url = endpoint.base_url;
        served.access = nullptr;
        served.api_prefix = false;
        served.response_headers = listener->spec().response_headers;
        endpoint.dispatcher = std::make_unique<Dispatcher>(served, *endpoint.router,
                                                           *endpoint.authenticator, runtime.log());
        listener_urls_[listener->name()] = endpoint.base_url;
    }
    runtime.start_job_workers();
    const std::lock_guard lock(servers_mutex);
    for (const auto& endpoint : parts_->endpoints) {
        servers()[endpoint->base_url] = InProcessEndpoint{endpoint->dispatcher.get()};
    }
}

InProcessServer::~InProcessServer() {
    {
        const std::lock_guard lock(servers_mutex);
        for (const auto& endpoint : parts_->endpoints) {
            servers().erase(endpoint->base_url);
        }
    }
    parts_->runtime->stop_job_workers();
    parts_->runtime->run_shutdown_hooks();
    parts_.reset();
}

std::string InProcessServer::listener_url(const std::string& name) const {
    const auto found = listener_urls_.find(name);
    if (found == listener_urls_.end()) {
        throw std::runtime_error("no enabled plugin registered a listener " + name);
    }
    return found->second;
}

std::string InProcessServer::output() const {
    return "(an in-process server: its warnings and errors are on the test's standard error)";
}

int InProcessServer::run_cli(const std::vector<std::string>& args, std::string& out) const {
    auto full = config_args(options_, database_.url(), data_.path());
    full.insert(full.end(), args.begin(), args.end());
    return run_loupe(full, out, {});
}

HttpResult InProcessEndpoint::handle(const std::string& base_url, const HttpCall& call) const {
    InProcessExchange exchange(call, base_url.substr(base_url.find("//") + 2));
    dispatcher->handle(exchange);
    if (exchange.result().status == 0) {
        throw std::runtime_error("the dispatcher sent no response to " + call.method + " " +
                                 call.url);
    }
    return exchange.result();
}

std::optional<HttpResult> answer_in_process(const HttpCall& call) {
    std::string base_url;
    InProcessEndpoint endpoint;
    {
        const std::lock_guard lock(servers_mutex);
        for (const auto& [base, found] : servers()) {
            if (call.url.compare(0, base.size(), base) == 0 &&
                (call.url.size() == base.size() || call.url[base.size()] == '/' ||
                 call.url[base.size()] == '?')) {
                base_url = base;
                endpoint = found;
                break;
            }
        }
    }
    if (endpoint.dispatcher == nullptr) {
        return std::nullopt;
    }
    return endpoint.handle(base_url, call);
}

}  // namespace loupe::test
