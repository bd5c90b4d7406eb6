// The builds plugin: ingestion (builds, screenshots, shards), processing and the diff engine's
// `loupe diff` command.
#include "loupe/plugin.hpp"

#include "diff_command.hpp"
#include "finalize.hpp"
#include "loupe/host.hpp"
#include "migrations.hpp"
#include "routes/routes.hpp"

namespace {

void install(loupe::Host& host) {
    using namespace loupe::builds;
    add_migrations(host.migrations());
    add_create_build(host);
    add_update_build(host);
    add_finalize_builds(host);
    add_get_build(host);
    add_list_builds(host);
    add_diff_command(host);
    // Processing (baseline, diffs, conclusion) is not implemented yet: finalized builds wait in
    // the queue, durable, for the handler that will process them.
    host.jobs().handle(process_job_kind, [](const loupe::Job&) {
        throw std::logic_error("build processing is not implemented in this version");
    });
}

}  // namespace

LOUPE_PLUGIN("builds", LOUPE_VERSION, LOUPE_REQUIRES("auth"), install)
