#include "serve_command.hpp"

#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <iostream>
#include <thread>

#include "allocator_tuning.hpp"
#include "auth/access_gate.hpp"
#include "auth/authenticator.hpp"
#include "extra_listeners.hpp"
#include "http/router.hpp"
#include "http/server.hpp"
#include "identity/bootstrap.hpp"
#include "jobs/job_settings.hpp"
#include "jobs/job_workers.hpp"
#include "metrics/metric_registry.hpp"
#include "metrics/request_metrics.hpp"

namespace loupe {
namespace {

sigset_t handled_signals() {
    sigset_t signals;
    sigemptyset(&signals);
    sigaddset(&signals, SIGINT);
    sigaddset(&signals, SIGTERM);
    sigaddset(&signals, SIGHUP);
    return signals;
}

/// Waits for SIGINT or SIGTERM; on the way, each SIGHUP reopens the log file.
int wait_for_termination_signal(LogFile* log_file, Logger& log) {
    const sigset_t signals = handled_signals();
    while (true) {
        int received = 0;
        sigwait(&signals, &received);
        if (received != SIGHUP) {
            return received;
        }
        if (log_file == nullptr) {
            log.info("log.reopen_skipped", {{"reason", "no log.file: the log goes to stderr"}});
            continue;
        }
        const auto problem = log_file->reopen();
        if (problem.empty()) {
            log.info("log.reopened", {{"path", log_file->path()}});
        } else {
            log.error("log.reopen_failed", {{"path", log_file->path()}, {"error", problem}});
        }
    }
}

std::chrono::milliseconds drain_timeout(const ConfigView& config, const std::string& key,
                                        int64_t fallback) {
    const int64_t value = config.get_int(key, fallback);
    if (value < 0) {
        throw std::runtime_error(key + " must be at least 0, got " + std::to_string(value));
    }
    return std::chrono::milliseconds(value);
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

int run_serve_command(Runtime& runtime, const std::vector<std::string>& args, LogFile* log_file) {
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
    // Block the handled signals before any thread starts, so every thread inherits the mask and
    // only sigwait() below receives them.
    const sigset_t signals = handled_signals();
    pthread_sigmask(SIG_BLOCK, &signals, nullptr);
    auto& config = runtime.config();
    const auto http_drain = drain_timeout(config, "http.drain_timeout_ms", 10'000);
    const auto jobs_drain =
        std::chrono::milliseconds(JobSettings::from_config(config).drain_timeout_ms);

    runtime.check_blob_store();
    runtime.load_plugins();
    if (migrate) {
        runtime.migrate();
    }
    const auto bootstrap = create_bootstrap_if_empty(runtime.identity(), runtime.data_dir());
    runtime.run_ready_hooks();

    Router router(runtime.registries().routes);
    metrics::RequestMetrics request_metrics(runtime.registries().routes);
    Authenticator authenticator(runtime.database(), runtime.registries().token_resolvers,
                                runtime.registries().session_resolvers);
    ServerOptions options;
    options.listen_address = config.get_string("http.listen_address", "0.0.0.0");
    options.port = static_cast<int>(config.get_int("http.port", 8080));
    options.threads = static_cast<int>(config.get_int("http.threads", 16));
    options.max_connections = static_cast<int>(config.get_int("http.max_connections", 128));
    options.guard.max_connections_per_client =
        static_cast<int>(config.get_int("http.max_connections_per_client", 64));
    options.guard.head_timeout =
        std::chrono::milliseconds(config.get_int("http.head_timeout_ms", 10'000));
    options.guard.body_timeout =
        std::chrono::milliseconds(config.get_int("http.body_timeout_ms", 30'000));
    options.max_json_bytes =
        static_cast<std::size_t>(config.get_int("http.max_json_bytes", 3 * 1024 * 1024));
    options.public_url = config.get_string("http.public_url", "");
    options.metrics = &request_metrics;
    options.max_json_values = static_cast<std::size_t>(
        config.get_int("http.max_json_values", static_cast<int64_t>(default_max_json_values)));
    const AccessGate access_gate(runtime.identity());
    options.access = &access_gate;
    // The plugins' extra listeners start first: their public URLs are final before the API
    // hands any out.
    ExtraListeners extra_listeners(runtime, options);
    runtime.metrics().add_collector(
        metrics::RequestMetrics::family_names(),
        [&request_metrics, &extra_listeners](metrics::Exposition& out) {
            std::vector<const metrics::RequestMetrics*> all{&request_metrics};
            for (const auto* extra : extra_listeners.metrics()) {
                all.push_back(extra);
            }
            metrics::RequestMetrics::collect(out, all);
        });
    extra_listeners.start();
    HttpServer server(options, router, authenticator, runtime.log());
    // Listening first: a process that cannot (its port is taken) exits before it claims a job,
    // which would otherwise wait in its lease until another instance takes it back.
    const int port = server.start();
    runtime.start_job_workers();
    if (config.get_string("http.public_url", "").empty()) {
        runtime.set_public_url("http://127.0.0.1:" + std::to_string(port));
    }
    if (bootstrap) {
        print_bootstrap(std::cout, *bootstrap, bootstrap_lines(runtime, *bootstrap));
    }
    std::cout << "loupe: listening on http://" << options.listen_address << ":" << port << " (pid "
              << ::getpid() << ")" << std::endl;
    extra_listeners.print(std::cout);

    const int signal_number = wait_for_termination_signal(log_file, runtime.log());
    const auto stopping = std::chrono::steady_clock::now();
    runtime.log().info("server.stopping",
                       {{"signal", std::to_string(signal_number)},
                        {"http_drain_timeout_ms", std::to_string(http_drain.count())},
                        {"jobs_drain_timeout_ms", std::to_string(jobs_drain.count())}});
    // Both drain at once: the workers stop claiming while the last requests finish.
    if (auto* workers = runtime.job_workers()) {
        workers->stop_claiming();
    }
    std::thread extra_drain([&] { extra_listeners.drain(stopping + http_drain); });
    server.drain(stopping + http_drain);
    extra_drain.join();
    const std::size_t threads_left = runtime.drain_job_workers(stopping + jobs_drain);
    if (threads_left > 0) {
        // Their jobs are back in the queue; their handlers still use the runtime, so the
        // process ends here, without destructors or shutdown hooks.
        runtime.log().warn("server.stopped",
                           {{"job_threads_abandoned", std::to_string(threads_left)}});
        std::cout.flush();
        std::_Exit(0);
    }
    runtime.run_shutdown_hooks();
    runtime.log().info("server.stopped");
    return 0;
}

}  // namespace loupe
