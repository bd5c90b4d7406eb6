// The builds plugin: ingestion (builds, screenshots, shards), processing, the events it
// publishes, the services other plugins use (reads, the review state, analytics, deletion of
// their rows), and the diff engine's `loupe diff` command.
#include "loupe/plugin.hpp"

#include <algorithm>
#include <memory>
#include <stdexcept>

#include "diff_command.hpp"
#include "finalize.hpp"
#include "loupe/host.hpp"
#include "loupe/http/api_description.hpp"
#include "migrations.hpp"
#include "processing/compute_diff.hpp"
#include "processing/image_memory_service.hpp"
#include "processing/process_build.hpp"
#include "project_settings_fields.hpp"
#include "retention/prune_job.hpp"
#include "retention/retention_commands.hpp"
#include "routes/routes.hpp"
#include "service/build_analytics_impl.hpp"
#include "service/build_deletion_impl.hpp"
#include "service/build_events.hpp"
#include "service/build_review_states_impl.hpp"
#include "service/builds_service_impl.hpp"
#include "service/project_tests_impl.hpp"
#include "service/pull_request_merges_impl.hpp"
#include "store/blob_references.hpp"
#include "thumbnails/thumbnail_image.hpp"
#include "uploads/quota_command.hpp"

namespace {

// What one install creates, kept by its Host.
struct BuildsPlugin {
    explicit BuildsPlugin(loupe::Host& host) : service(host), events(host.events()) {}
    loupe::builds::BuildsServiceImpl service;
    loupe::builds::BuildReviewStatesImpl review_states;
    loupe::builds::BuildAnalyticsImpl analytics;
    loupe::builds::BuildDeletionImpl deletion;
    loupe::builds::BuildEvents events;
    std::unique_ptr<loupe::builds::Retention> retention;
};

void install(loupe::Host& host) {
    loupe::describe_api(host.services(), loupe::embedded_api_description());
    using namespace loupe::builds;
    auto& plugin = host.make<BuildsPlugin>(host);
    plugin.events.set_metrics(ProcessingMetrics(host));
    const BuildEvents& events = plugin.events;
    host.services().provide<BuildsService>(plugin.service);
    host.services().provide<BuildReviewStates>(plugin.review_states);
    host.services().provide<BuildAnalytics>(plugin.analytics);
    host.services().provide<BuildDeletion>(plugin.deletion);
    static ProjectTestsImpl tests;  // stateless: one serves every install
    host.services().provide<ProjectTests>(tests);
    static PullRequestMergesImpl merges;  // stateless: one serves every install
    host.services().provide<PullRequestMerges>(merges);
    static ScreenshotThumbnailsImpl thumbnails;  // stateless: one serves every install
    host.services().provide<ScreenshotThumbnails>(thumbnails);
    const int64_t retention_days = host.config().get_int("retention_days", 0);
    if (retention_days < 0) {
        throw std::runtime_error("plugins.builds.retention_days: expected a number of days >= 0");
    }
    const UploadPolicy& policy = host.make<UploadPolicy>(UploadPolicy::from_config(host.config()));
    add_project_settings_fields(host.project_fields(), retention_days, policy);
    add_quota_command(host, policy);
    plugin.retention = std::make_unique<Retention>(
        host, plugin.deletion, host.services().find<loupe::BlobSweep>(), retention_days);
    auto& retention = *plugin.retention;
    add_retention_commands(host, retention);
    add_prune_job(host, retention, host.config().get_int("prune_interval_hours", 24) * 3'600'000);

    add_migrations(host.migrations());
    add_create_build(host, events, policy);
    add_update_build(host, events, policy);
    add_finalize_builds(host, events);
    add_get_build(host);
    add_list_builds(host);
    add_diff_command(host);
    add_find_baseline(host);
    add_list_diffs(host);
    add_change_ignore_routes(host);
    add_list_tests(host);
    add_get_test(host);
    add_test_history(host);
    add_test_masks_routes(host);
    add_list_test_changes(host);
    add_list_ignored_changes(host);
    host.blob_references().add(referenced_blob_keys);

    auto& h = host;
    h.jobs().handle(
        process_job_kind,
        [&h, &events](const loupe::Job& job) {
            process_build(h, events, job.payload.at("buildId").get<int64_t>());
        },
        [&h, &events](const loupe::Job& job, const std::string&) {
            fail_build_processing(h, events, job.payload.at("buildId").get<int64_t>());
        });
    DiffEngineSettings settings;
    settings.threads_per_diff =
        static_cast<unsigned>(std::max<int64_t>(1, host.config().get_int("diff_threads", 1)));
    settings.memory = std::make_shared<DiffMemoryBudget>(
        diff_memory_bytes_setting(host.config().get_int("diff_memory_mb", 0)));
    // Thumbnails and any other decoder of stored images draw on the same budget.
    auto& memory = host.make<ImageMemoryService>(settings.memory,
                                                 host.services().find<loupe::metrics::Metrics>());
    host.services().provide<loupe::builds::ImageMemory>(memory);
    h.jobs().handle(
        compute_diff_job_kind,
        [&h, &events, settings](const loupe::Job& job) {
            compute_diff(h, events, settings, job.payload.at("diffId").get<int64_t>());
        },
        [&h, &events](const loupe::Job& job, const std::string& error) {
            fail_diff_computation(h, events, job.payload.at("diffId").get<int64_t>(), error);
        });
}

}  // namespace

LOUPE_PLUGIN("builds", LOUPE_VERSION, LOUPE_REQUIRES(), install)
