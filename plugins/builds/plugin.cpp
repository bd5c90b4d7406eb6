// The builds plugin: ingestion (builds, screenshots, shards), processing and the diff engine's
// `loupe diff` command.
#include "loupe/plugin.hpp"

#include <algorithm>

#include "diff_command.hpp"
#include "finalize.hpp"
#include "loupe/host.hpp"
#include "migrations.hpp"
#include "processing/compute_diff.hpp"
#include "processing/process_build.hpp"
#include "routes/routes.hpp"
#include "store/blob_references.hpp"

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
    add_find_baseline(host);
    add_list_diffs(host);
    host.blob_references().add(referenced_blob_keys);

    auto& h = host;
    h.jobs().handle(
        process_job_kind,
        [&h](const loupe::Job& job) { process_build(h, job.payload.at("buildId").get<int64_t>()); },
        [&h](const loupe::Job& job, const std::string&) {
            fail_build_processing(h, job.payload.at("buildId").get<int64_t>());
        });
    DiffEngineSettings settings;
    settings.threads_per_diff =
        static_cast<unsigned>(std::max<int64_t>(1, host.config().get_int("diff_threads", 1)));
    h.jobs().handle(
        compute_diff_job_kind,
        [&h, settings](const loupe::Job& job) {
            compute_diff(h, settings, job.payload.at("diffId").get<int64_t>());
        },
        [&h](const loupe::Job& job, const std::string& error) {
            fail_diff_computation(h, job.payload.at("diffId").get<int64_t>(), error);
        });
}

}  // namespace

LOUPE_PLUGIN("builds", LOUPE_VERSION, LOUPE_REQUIRES("auth"), install)
