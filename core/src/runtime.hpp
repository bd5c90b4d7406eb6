#pragma once
// Assembles the core for one process: configuration, database, identity, blob store, the
// loaded plugins (each installed into its own Host, then the registries frozen) and the
// migrations. `loupe serve`, `migrate`, `admin`, plugin subcommands and the tests all start here.

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "core_context.hpp"
#include "db/migration_runner.hpp"
#include "http/openapi_registry.hpp"
#include "identity/identity_store.hpp"
#include "jobs/job_signal.hpp"
#include "loupe/export.hpp"
#include "plugin/plugin_loader.hpp"

namespace loupe {

namespace metrics {
class MetricRegistry;
}

class BlobInventory;
class BlobSweeper;
class HostImpl;
class JobMetrics;
class JobWorkers;
class LocalBlobStore;
class S3BlobStore;
class UrlSigner;

class LOUPE_API Runtime {
public:
    /// Opens the database (db.url) and the blob store (blobs.backend: the local folder under
    /// data.dir, or an S3 bucket). Throws std::runtime_error naming a wrong key.
    explicit Runtime(std::unique_ptr<Config> config);
    ~Runtime();
    Runtime(const Runtime&) = delete;
    Runtime& operator=(const Runtime&) = delete;

    /// Registers the core's routes, then opens, orders and installs plugins.enabled from
    /// plugins.path, and freezes the registries. Throws PluginLoadError with the reason. A
    /// second call does nothing (a command line may ask in several places).
    void load_plugins();
    /// Core track first, then each plugin's in install order. With the plugins loaded, also
    /// records which of them hold blob keys (for the blob sweep).
    std::vector<AppliedMigration> migrate();
    void run_ready_hooks();
    void run_shutdown_hooks();
    /// Starts the job workers (jobs.* keys) on the registered job kinds; call after
    /// load_plugins(), once the plugins are ready. Throws std::runtime_error on a bad jobs.* key.
    void start_job_workers();
    /// Lets the running jobs finish and joins the workers; before the shutdown hooks.
    /// Idempotent; the destructor calls it.
    void stop_job_workers();
    /// At shutdown: the workers stop claiming, running jobs may finish until `deadline`, the
    /// rest are handed back to the queue. Returns how many worker threads were left running
    /// (their handlers still use the runtime: end the process with std::_Exit, never destroy
    /// it). 0 when the workers all stopped.
    std::size_t drain_job_workers(std::chrono::steady_clock::time_point deadline);
    /// The running workers (nullptr before start_job_workers()).
    JobWorkers* job_workers() { return job_workers_.get(); }

    Config& config() { return *config_; }
    Database& database() { return *database_; }
    IdentityStore& identity() { return *identity_; }
    BlobStore& blobs();
    /// The S3 store when blobs.backend=s3, else nullptr.
    S3BlobStore* s3_blobs() { return s3_blobs_; }
    /// The local store when blobs.backend=local, else nullptr.
    LocalBlobStore* local_blobs() { return local_blobs_; }
    /// The blob store's listing and quarantine (the blob sweep, backups).
    BlobInventory& blob_inventory() { return *blob_inventory_; }
    /// Throws std::runtime_error with a clear message when the blob store cannot be used (an
    /// unreachable bucket, refused credentials); `loupe serve` calls it before listening.
    void check_blob_store();
    Registries& registries() { return registries_; }
    /// What the plugins described of their routes (the ApiDescription service).
    const ApiDescriptionRegistry& api_description() const { return api_description_; }
    CoreContext& context() { return *context_; }
    /// The blob sweep the core provides to plugins (as the BlobSweep service).
    BlobSweeper& blob_sweeper() { return *blob_sweeper_; }
    Logger& log() { return *log_; }
    /// The process's metrics, served at GET /metrics and lent to plugins as a service.
    metrics::MetricRegistry& metrics() { return *metrics_; }
    const std::vector<LoadedPlugin>& plugins() const { return plugins_; }
    std::string data_dir() const;
    /// Sets the base of returned URLs once the listening port is known.
    void set_public_url(std::string url);

private:
    void register_core_routes(HostImpl& core_host);

    std::unique_ptr<Config> config_;
    std::unique_ptr<Logger> log_;
    std::unique_ptr<metrics::MetricRegistry> metrics_;
    std::unique_ptr<Database> database_;
    std::unique_ptr<IdentityStore> identity_;
    std::unique_ptr<UrlSigner> signer_;
    std::unique_ptr<BlobStore> blobs_;
    LocalBlobStore* local_blobs_ = nullptr;
    S3BlobStore* s3_blobs_ = nullptr;
    Registries registries_;
    ApiDescriptionRegistry api_description_;
    std::unique_ptr<CoreContext> context_;
    std::vector<std::unique_ptr<HostImpl>> hosts_;
    std::vector<LoadedPlugin> plugins_;
    std::unique_ptr<BlobInventory> blob_inventory_;
    std::unique_ptr<BlobSweeper> blob_sweeper_;
    JobSignal job_signal_;
    std::unique_ptr<JobMetrics> job_metrics_;
    std::unique_ptr<JobWorkers> job_workers_;
};

/// Splits a comma/space separated list ("auth, builds") into names.
LOUPE_API std::vector<std::string> split_list(const std::string& text);

}  // namespace loupe
