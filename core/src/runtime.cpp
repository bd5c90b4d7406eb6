#include "runtime.hpp"

#include <filesystem>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "blob/local_blob_store.hpp"
#include "blob/s3/s3_blob_store.hpp"
#include "blob/sweep/blob_holders.hpp"
#include "blob/sweep/blob_sweeper.hpp"
#include "core_routes.hpp"
#include "db/database_impl.hpp"
#include "events/event_catalogue.hpp"
#include "http/openapi_route.hpp"
#include "http/router.hpp"
#include "jobs/job_metrics.hpp"
#include "jobs/job_workers.hpp"
#include "log/stderr_logger.hpp"
#include "metrics/core_metrics.hpp"
#include "metrics/metric_registry.hpp"
#include "metrics/metrics_route.hpp"
#include "plugin/host_impl.hpp"
#include "plugin/plugin_settings.hpp"

namespace loupe {

std::vector<std::string> split_list(const std::string& text) {
    std::vector<std::string> names;
    std::string current;
    for (char c : text + ",") {
        if (c == ',' || c == ' ' || c == '\t') {
            if (!current.empty()) {
                names.push_back(current);
            }
            current.clear();
        } else {
            current += c;
        }
    }
    return names;
}

Runtime::Runtime(std::unique_ptr<Config> config) : config_(std::move(config)) {
    const auto level = StderrLogger::parse_level(config_->get_string("log.level", "info"));
    log_ = std::make_unique<StderrLogger>("core", level);
    metrics_ = std::make_unique<metrics::MetricRegistry>();

    const auto threads = config_->get_int("http.threads", 16);
    const auto workers = config_->get_int("jobs.workers", 0);
    auto pool_size = config_->get_int("db.pool_size", 0);
    if (pool_size <= 0) {
        pool_size = threads + (workers > 0 ? workers : std::thread::hardware_concurrency()) + 2;
    }
    std::filesystem::create_directories(data_dir());
    database_ = open_database(config_->get_string("db.url", "sqlite:./data/loupe.db"),
                              static_cast<std::size_t>(pool_size));
    identity_ = std::make_unique<IdentityStore>(*database_);
    metrics::add_core_collectors(*metrics_, *database_);

    const auto backend = config_->get_string("blobs.backend", "local");
    auto secret = config_->get_string("blobs.signing_secret", "");
    if (secret.empty() && backend == "s3") {
        // A secret generated per data folder would differ between instances, and a signed URL
        // issued by one would be refused by the next.
        throw std::runtime_error(
            "blobs.signing_secret: required with blobs.backend=s3 (the same value on every "
            "instance; for example the output of `openssl rand -hex 32`)");
    }
    if (secret.empty()) {
        secret = UrlSigner::load_or_create_secret(data_dir());
    }
    signer_ = std::make_unique<UrlSigner>(secret);
    auto public_url = [this] {
        return context_->public_url.empty() ? public_url_of(*config_) : context_->public_url;
    };
    if (backend == "local") {
        auto local = std::make_unique<LocalBlobStore>(
            (std::filesystem::path(data_dir()) / "blobs").string(), *signer_, public_url);
        local_blobs_ = local.get();
        blobs_ = std::move(local);
    } else if (backend == "s3") {
        auto s3 = std::make_unique<S3BlobStore>(
            S3Settings::from_config(*config_), *signer_, public_url,
            static_cast<uint64_t>(config_->get_int("blobs.max_upload_bytes", 50ll << 20)), *log_);
        s3_blobs_ = s3.get();
        blobs_ = std::move(s3);
    } else {
        throw std::runtime_error("blobs.backend: expected local or s3, got '" + backend + "'");
    }

    context_ = std::make_unique<CoreContext>(CoreContext{
        *config_, *database_, *identity_, *blobs_, registries_, job_signal_, level, {}});

    blob_inventory_ = local_blobs_ != nullptr ? local_blob_inventory(*local_blobs_)
                                              : s3_blob_inventory(*s3_blobs_);
    blob_sweeper_ = std::make_unique<BlobSweeper>(
        *database_, *blob_inventory_,
        [this](soci::session& session, const std::vector<std::string>& keys) {
            return referenced_blobs(registries_, session, keys);
        },
        [this](soci::session& session) {
            std::set<std::string> loaded;
            for (const auto& plugin : plugins_) {
                loaded.insert(plugin.name);
            }
            return unseen_blob_holders(session, loaded);
        },
        BlobSweepSettings::from_config(*config_), *log_);
}

Runtime::~Runtime() {
    stop_job_workers();
}

BlobStore& Runtime::blobs() {
    return *blobs_;
}

void Runtime::check_blob_store() {
    if (s3_blobs_ != nullptr) {
        s3_blobs_->check_access();
    }
}

std::string Runtime::data_dir() const {
    return config_->get_string("data.dir", "./data");
}

void Runtime::set_public_url(std::string url) {
    while (!url.empty() && url.back() == '/') {
        url.pop_back();
    }
    context_->public_url = std::move(url);
}

void Runtime::load_plugins() {
    if (!hosts_.empty()) {
        return;
    }
    auto core_host = std::make_unique<HostImpl>("core", *context_);
    register_core_routes(*core_host);
    core_host->services().provide<BlobSweep>(*blob_sweeper_);
    core_host->services().provide<metrics::Metrics>(*metrics_);
    core_host->commit();
    hosts_.push_back(std::move(core_host));

    plugins_ = order_plugins(
        open_enabled_plugins(plugin_search_path(*config_), enabled_plugin_names(*config_)));
    for (const auto& plugin : plugins_) {
        auto host = std::make_unique<HostImpl>(plugin.name, *context_);
        try {
            plugin.descriptor->install(*host);
            host->commit();
        } catch (const std::exception& error) {
            host->discard();
            throw PluginLoadError("plugin '" + plugin.name + "' (" + plugin.path +
                                  ") failed to install: " + error.what());
        }
        log_->info("plugin.installed",
                   {{"name", plugin.name}, {"version", plugin.version}, {"path", plugin.path}});
        hosts_.push_back(std::move(host));
    }
    try {
        check_event_subscriptions(registries_);
    } catch (const std::runtime_error& error) {
        throw PluginLoadError(error.what());
    }
    for (const auto& idle : idle_event_subscriptions(registries_)) {
        log_->debug("event.subscription_idle",
                    {{"subscription", idle}, {"reason", "no enabled plugin publishes it"}});
    }
    registries_.frozen = true;
    identity_->set_project_field_writers(registries_.project_field_writers);
    identity_->set_project_field_setters(registries_.project_field_setters);
    identity_->set_reserved_slugs(own_first_segments(registries_.routes));
}

std::vector<AppliedMigration> Runtime::migrate() {
    std::vector<MigrationTrack> tracks{core_migration_track()};
    for (const auto& track : registries_.migrations) {
        tracks.push_back(track);
    }
    auto applied = run_migrations(*database_, tracks, *log_);
    if (registries_.frozen) {
        std::vector<std::pair<std::string, bool>> holders;
        for (const auto& plugin : plugins_) {
            bool holds = false;
            for (const auto& finder : registries_.blob_finders) {
                holds = holds || finder.plugin == plugin.name;
            }
            holders.emplace_back(plugin.name, holds);
        }
        database_->transaction(
            [&](soci::session& session) { record_blob_holders(session, holders); });
    }
    return applied;
}

void Runtime::run_ready_hooks() {
    for (auto& hook : registries_.ready_hooks) {
        hook();
    }
}

void Runtime::run_shutdown_hooks() {
    for (auto it = registries_.shutdown_hooks.rbegin(); it != registries_.shutdown_hooks.rend();
         ++it) {
        try {
            (*it)();
        } catch (const std::exception& error) {
            log_->error("shutdown.hook_failed", {{"error", error.what()}});
        }
    }
}

void Runtime::start_job_workers() {
    if (job_workers_) {
        throw std::logic_error("job workers already started");
    }
    std::vector<std::string> kinds;
    for (const auto& [kind, _] : registries_.job_handlers) {
        kinds.push_back(kind);
    }
    job_metrics_ = std::make_unique<JobMetrics>(*metrics_, kinds);
    metrics_->add_collector(job_queue_family_names(),
                            [&database = *database_, kinds](metrics::Exposition& out) {
                                collect_job_queue(database, kinds, out);
                            });
    job_workers_ = std::make_unique<JobWorkers>(*database_, registries_.job_handlers,
                                                JobSettings::from_config(*config_), *log_,
                                                job_signal_, new_instance_id(), job_metrics_.get());
    job_workers_->start();
}

void Runtime::stop_job_workers() {
    if (job_workers_) {
        job_workers_->stop();
    }
}

std::size_t Runtime::drain_job_workers(std::chrono::steady_clock::time_point deadline) {
    return job_workers_ ? job_workers_->drain(deadline) : 0;
}

void Runtime::register_core_routes(HostImpl& core_host) {
    UploadLimits limits;
    limits.max_bytes =
        static_cast<uint64_t>(config_->get_int("blobs.max_upload_bytes", 50ll << 20));
    std::function<bool()> blobs_ready;
    if (s3_blobs_ != nullptr) {
        blobs_ready = [store = s3_blobs_] { return store->reachable(); };
    }
    limits.uploaded_bytes = &metrics_->counter(
        "loupe_upload_bytes_total", "Bytes of screenshots and files uploaded through Loupe.");
    add_core_routes(core_host.routes(),
                    CoreRouteTargets{*database_, *blobs_, local_blobs_, *signer_, blobs_ready},
                    limits, *log_);
    core_host.services().provide<ApiDescription>(api_description_);
    describe_api(core_host.services(), core_api_description());
    add_openapi_route(core_host.routes(),
                      OpenApiSources{registries_, api_description_,
                                     [&core_host] { return core_host.public_url(); },
                                     [this] {
                                         std::vector<std::string> names;
                                         for (const auto& plugin : plugins_) {
                                             names.push_back(plugin.name);
                                         }
                                         return names;
                                     }});
    metrics::MetricsRouteSettings metrics_route;
    metrics_route.enabled = config_->get_bool("metrics.enabled", true);
    metrics_route.token = config_->get_string("metrics.token", "");
    metrics_route.allow_remote = config_->get_bool("metrics.allow_remote", false);
    metrics::add_metrics_route(core_host.routes(), *metrics_, metrics_route, *log_);
}

}  // namespace loupe
