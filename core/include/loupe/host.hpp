#pragma once
// What the core lends a plugin. Each plugin gets its own Host; what it registers during
// install() is staged and committed only if install() returns normally. After all installs
// the registries are frozen: registering later throws std::logic_error.
// OWNERSHIP: every reference returned lives as long as the Host, which lives as long as the
// plugin's installation: in `loupe` that is the process, but a process may install a plugin
// more than once, each time with a new Host (the tests' in-process host starts a Runtime per
// test). So what install() makes for its routes, jobs and hooks is kept by the Host
// (keep()/make()), never in a static, which would still hold the first Host's references.
// THREADS: registration happens on the main thread; db(), identity(), blobs(),
// jobs().enqueue(), events().publish() and log() are thread-safe.

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "loupe/auth/identity.hpp"
#include "loupe/auth/project_fields.hpp"
#include "loupe/auth/token_resolvers.hpp"
#include "loupe/blob/blob_references.hpp"
#include "loupe/blob/blob_store.hpp"
#include "loupe/cli/commands.hpp"
#include "loupe/config/config_view.hpp"
#include "loupe/db/database.hpp"
#include "loupe/db/migrations.hpp"
#include "loupe/events/events.hpp"
#include "loupe/export.hpp"
#include "loupe/http/listeners.hpp"
#include "loupe/http/routes.hpp"
#include "loupe/jobs/job_queue.hpp"
#include "loupe/log/logger.hpp"
#include "loupe/services/services.hpp"

namespace loupe {

/// Lines a plugin adds to the block `loupe serve` prints when it created the first user on an
/// empty database (for example a sign-in link), given that user.
using BootstrapHook = std::function<std::vector<std::string>(const User& admin)>;

class LOUPE_API Host {
public:
    virtual ~Host();

    virtual const std::string& plugin_name() const = 0;

    virtual Routes& routes() = 0;
    /// Extra HTTP listeners with route tables of their own (see loupe/http/listeners.hpp).
    virtual Listeners& listeners() = 0;
    virtual Migrations& migrations() = 0;
    virtual JobQueue& jobs() = 0;
    virtual Services& services() = 0;
    virtual Events& events() = 0;
    virtual Commands& commands() = 0;
    virtual TokenResolvers& token_resolvers() = 0;
    /// Fields of this plugin's per-project settings in the Project resource.
    virtual ProjectFields& project_fields() = 0;

    virtual Database& db() = 0;
    virtual Identity& identity() = 0;
    virtual BlobStore& blobs() = 0;
    /// Finders of the blob keys each plugin's rows hold (register yours if you keep any).
    virtual BlobReferences& blob_references() = 0;
    /// The plugin's own section, `plugins.<name>.*`.
    virtual const ConfigView& config() = 0;
    /// The whole configuration (read-only), e.g. `http.public_url`.
    virtual const ConfigView& global_config() = 0;
    virtual Logger& log() = 0;

    /// `http.public_url` without a trailing slash; every URL the API returns starts with it.
    virtual std::string public_url() = 0;

    /// Runs after migrations, before the server listens (in install order).
    virtual void on_ready(std::function<void()> hook) = 0;
    /// Runs at shutdown, in reverse install order, after HTTP and workers stopped.
    virtual void on_shutdown(std::function<void()> hook) = 0;
    /// Runs once, after the server listens (public_url() is final), when this start created the
    /// first user; the lines returned are printed inside the bootstrap block.
    virtual void on_bootstrap(BootstrapHook hook) = 0;

    /// Keeps `object` as long as this Host and returns it: the plugin's settings, clients and
    /// services that its routes, jobs and hooks refer to. Kept objects are destroyed with the
    /// Host, the last kept first, after the shutdown hooks ran.
    template <class T>
    T& keep(std::unique_ptr<T> object) {
        T& kept = *object;
        keep_object(std::shared_ptr<void>(std::move(object)));
        return kept;
    }
    /// keep(std::make_unique<T>(args...)).
    template <class T, class... Args>
    T& make(Args&&... args) {
        return keep(std::make_unique<T>(std::forward<Args>(args)...));
    }

protected:
    virtual void keep_object(std::shared_ptr<void> object) = 0;
};

}  // namespace loupe
