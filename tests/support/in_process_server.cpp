#include "support/in_process_server.hpp"

#include <atomic>
#include <chrono>
#include <iostream>
#include <map>
#include <mutex>
#include <stdexcept>

#include "auth/access_gate.hpp"
#include "auth/authenticator.hpp"
#include "config/config.hpp"
#include "http/dispatcher.hpp"
#include "http/router.hpp"
#include "identity/bootstrap.hpp"
#include "runtime.hpp"
#include "support/build_paths.hpp"
#include "support/in_process_exchange.hpp"

namespace loupe::test {
namespace {

// The servers of this process by base URL, for the test HTTP client.
std::mutex servers_mutex;
std::map<std::string, const InProcessServer*>& servers() {
    static std::map<std::string, const InProcessServer*> by_url;
    return by_url;
}

std::string next_base_url() {
    static std::atomic<int> counter{0};
    return "http://loupe-" + std::to_string(++counter) + ".in-process.test";
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

// Declared in the order they are built; destroyed in reverse, the Runtime last.
struct InProcessServer::Parts {
    std::unique_ptr<Runtime> runtime;
    std::unique_ptr<Router> router;
    std::unique_ptr<Authenticator> authenticator;
    std::unique_ptr<AccessGate> access_gate;
    std::unique_ptr<Dispatcher> dispatcher;
    std::string host;
};

InProcessServer::InProcessServer(ServerOptions options)
    : options_(std::move(options)), base_url_(next_base_url()), parts_(std::make_unique<Parts>()) {
    if (!options_.environment.empty()) {
        throw std::logic_error("an in-process server shares the test's environment: use a "
                               "ServerProcess for a server with an environment of its own");
    }
    auto config = Config::load(std::string(LOUPE_TEST_SOURCE_DIR) + "/etc/loupe.properties",
                               config_overrides(options_, database_.url(), data_.path()));
    const std::string public_url = config->get_string("http.public_url", "");
    parts_->runtime = std::make_unique<Runtime>(std::move(config));
    auto& runtime = *parts_->runtime;
    auto t0 = std::chrono::steady_clock::now();
    auto lap = [&](const char* what) { auto t = std::chrono::steady_clock::now(); if (std::getenv("INPROC_T")) std::cerr << what << " " << std::chrono::duration<double, std::milli>(t - t0).count() << " ms\n"; t0 = t; };
    runtime.check_blob_store();
    runtime.load_plugins();
    lap("load");
    runtime.migrate();
    lap("migrate");
    if (const auto bootstrap = create_bootstrap_if_empty(runtime.identity(), runtime.data_dir())) {
        project_token_ = bootstrap->project_token;
        personal_token_ = bootstrap->personal_access_token;
    }
    runtime.set_public_url(public_url.empty() ? base_url_ : public_url);
    lap("bootstrap");
    runtime.run_ready_hooks();
    lap("ready");
    parts_->router = std::make_unique<Router>(runtime.registries().routes);
    parts_->authenticator =
        std::make_unique<Authenticator>(runtime.database(), runtime.registries().token_resolvers,
                                        runtime.registries().session_resolvers);
    parts_->access_gate = std::make_unique<AccessGate>(runtime.identity());
    DispatchOptions dispatch;
    dispatch.max_json_bytes = static_cast<std::size_t>(
        runtime.config().get_int("http.max_json_bytes", 3 * 1024 * 1024));
    dispatch.max_json_values = static_cast<std::size_t>(runtime.config().get_int(
        "http.max_json_values", static_cast<int64_t>(default_max_json_values)));
    dispatch.public_url = public_url;
    dispatch.access = parts_->access_gate.get();
    parts_->dispatcher = std::make_unique<Dispatcher>(dispatch, *parts_->router,
                                                      *parts_->authenticator, runtime.log());
    parts_->host = base_url_.substr(base_url_.find("//") + 2);
    runtime.start_job_workers();
    lap("workers");
    const std::lock_guard lock(servers_mutex);
    servers()[base_url_] = this;
}

InProcessServer::~InProcessServer() {
    {
        const std::lock_guard lock(servers_mutex);
        servers().erase(base_url_);
    }
    auto t0 = std::chrono::steady_clock::now();
    parts_->runtime->stop_job_workers();
    parts_->runtime->run_shutdown_hooks();
    parts_.reset();
    if (std::getenv("INPROC_T")) std::cerr << "down " << std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count() << " ms\n";
}

std::string InProcessServer::listener_url(const std::string& name) const {
    throw std::logic_error("an in-process server opens no listener (" + name +
                           "): use a ServerProcess");
}

std::string InProcessServer::output() const {
    return "(an in-process server: its warnings and errors are on the test's standard error)";
}

int InProcessServer::run_cli(const std::vector<std::string>& args, std::string& out) const {
    auto full = config_args(options_, database_.url(), data_.path());
    full.insert(full.end(), args.begin(), args.end());
    return run_loupe(full, out, {});
}

HttpResult InProcessServer::handle(const HttpCall& call) const {
    InProcessExchange exchange(call, parts_->host);
    parts_->dispatcher->handle(exchange);
    if (exchange.result().status == 0) {
        throw std::runtime_error("the dispatcher sent no response to " + call.method + " " +
                                 call.url);
    }
    return exchange.result();
}

const InProcessServer* in_process_server_for(const std::string& url) {
    const std::lock_guard lock(servers_mutex);
    for (const auto& [base, server] : servers()) {
        if (url.compare(0, base.size(), base) == 0 &&
            (url.size() == base.size() || url[base.size()] == '/' || url[base.size()] == '?')) {
            return server;
        }
    }
    return nullptr;
}

}  // namespace loupe::test
