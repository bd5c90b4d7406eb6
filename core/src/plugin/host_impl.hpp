#pragma once
// One plugin's Host. Registrations are staged and reach the shared Registries only through
// commit(), called by the loader after install() returned normally; discard() drops them.
// The object outlives install(): plugins keep using db(), jobs().enqueue(), events().publish().

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "core_context.hpp"
#include "loupe/host.hpp"

namespace loupe {

class LOUPE_API HostImpl final : public Host {
public:
    HostImpl(std::string plugin_name, CoreContext& core);
    ~HostImpl() override;

    const std::string& plugin_name() const override { return plugin_name_; }
    Routes& routes() override;
    Listeners& listeners() override;
    Migrations& migrations() override;
    JobQueue& jobs() override;
    Services& services() override;
    Events& events() override;
    Commands& commands() override;
    TokenResolvers& token_resolvers() override;
    ProjectFields& project_fields() override;
    Database& db() override { return core_.database; }
    Identity& identity() override { return core_.identity; }
    BlobStore& blobs() override { return core_.blobs; }
    BlobReferences& blob_references() override;
    const ConfigView& config() override;
    const ConfigView& global_config() override { return core_.config; }
    Logger& log() override;
    std::string public_url() override;
    void on_ready(std::function<void()> hook) override;
    void on_shutdown(std::function<void()> hook) override;
    void on_bootstrap(BootstrapHook hook) override;

    /// Moves the staged registrations into the registries; throws std::runtime_error on a
    /// conflict with an earlier plugin (same job kind, service, command or token prefix).
    void commit();
    void discard();

protected:
    void keep_object(std::shared_ptr<void> object) override;

private:
    struct Staged;
    std::string plugin_name_;
    CoreContext& core_;
    std::unique_ptr<Staged> staged_;
    /// What the plugin keeps (keep()), in the order it was kept.
    std::vector<std::shared_ptr<void>> kept_;
};

/// The subset of `keys` any registered finder reports as referenced.
LOUPE_API std::set<std::string> referenced_blobs(const Registries& registries,
                                                 soci::session& session,
                                                 const std::vector<std::string>& keys);

/// `http.public_url` without a trailing slash (default http://127.0.0.1:<http.port>).
LOUPE_API std::string public_url_of(const ConfigView& config);

}  // namespace loupe
