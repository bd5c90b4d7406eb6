#include "serve_command.hpp"

#include <chrono>
#include <csignal>
#include <iostream>

#include "allocator_tuning.hpp"
#include "auth/authenticator.hpp"
#include "http/router.hpp"
#include "http/server.hpp"
#include "identity/bootstrap.hpp"

namespace loupe {
namespace {

int wait_for_termination_signal() {
    sigset_t signals;
    sigemptyset(&signals);
    sigaddset(&signals, SIGINT);
    sigaddset(&signals, SIGTERM);
    int received = 0;
    sigwait(&signals, &received);
    return received;
}

/// What the plugins add to the bootstrap block; a failing hook is logged, not fatal.
std::vector<std::string> bootstrap_lines(Runtime& runtime, const BootstrapResult& bootstrap) {
    std::vector<std::string> lines;
    const auto admin = runtime.identity().find_user(bootstrap.admin_slug);
    if (!admin) {
        return lines;
    }
    for (const auto& hook : runtime.registries().bootstrap_hooks) {
        try {
            for (auto& line : hook(*admin)) {
                lines.push_back(std::move(line));
            }
        } catch (const std::exception& error) {
            runtime.log().error("bootstrap.hook_failed", {{"error", error.what()}});
        }
    }
    return lines;
}

}  // namespace

int run_serve_command(Runtime& runtime, const std::vector<std::string>& args) {
    bool migrate = true;
    for (const auto& arg : args) {
        if (arg == "--no-migrate") {
            migrate = false;
        } else {
            std::cerr << "loupe serve: unknown option " << arg << "\n";
            return 2;
        }
    }
    tune_allocator_for_serving();
    // Block the termination signals before any thread starts, so every thread inherits the
    // mask and only sigwait() below receives them.
    sigset_t signals;
    sigemptyset(&signals);
    sigaddset(&signals, SIGINT);
    sigaddset(&signals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &signals, nullptr);

    runtime.check_blob_store();
    runtime.load_plugins();
    if (migrate) {
        runtime.migrate();
    }
    const auto bootstrap = create_bootstrap_if_empty(runtime.identity(), runtime.data_dir());
    runtime.run_ready_hooks();
    runtime.start_job_workers();

    auto& config = runtime.config();
    Router router(runtime.registries().routes);
    Authenticator authenticator(runtime.database(), runtime.registries().token_resolvers,
                                runtime.registries().session_resolvers);
    ServerOptions options;
    options.listen_address = config.get_string("http.listen_address", "0.0.0.0");
    options.port = static_cast<int>(config.get_int("http.port", 8080));
    options.threads = static_cast<int>(config.get_int("http.threads", 16));
    options.max_connections = static_cast<int>(config.get_int("http.max_connections", 512));
    options.guard.max_connections_per_client =
        static_cast<int>(config.get_int("http.max_connections_per_client", 64));
    options.guard.head_timeout =
        std::chrono::milliseconds(config.get_int("http.head_timeout_ms", 10'000));
    options.guard.body_timeout =
        std::chrono::milliseconds(config.get_int("http.body_timeout_ms", 30'000));
    options.max_json_bytes =
        static_cast<std::size_t>(config.get_int("http.max_json_bytes", 3 * 1024 * 1024));
    options.public_url = config.get_string("http.public_url", "");
    HttpServer server(options, router, authenticator, runtime.log());
    const int port = server.start();
    if (config.get_string("http.public_url", "").empty()) {
        runtime.set_public_url("http://127.0.0.1:" + std::to_string(port));
    }
    if (bootstrap) {
        print_bootstrap(std::cout, *bootstrap, bootstrap_lines(runtime, *bootstrap));
    }
    std::cout << "loupe: listening on http://" << options.listen_address << ":" << port
              << std::endl;

    const int signal_number = wait_for_termination_signal();
    runtime.log().info("server.stopping", {{"signal", std::to_string(signal_number)}});
    server.stop();
    runtime.stop_job_workers();
    runtime.run_shutdown_hooks();
    return 0;
}

}  // namespace loupe
