// The deployments plugin: static sites published with `argos deploy` (POST /deployments,
// finalize, get), served by Loupe itself at /d/{site}/ or on {site}.{domain}, compressed once
// in a job, and pruned with `loupe admin deployments prune`.
#include "loupe/plugin.hpp"

#include <memory>

#include "admin_command.hpp"
#include "compress_job.hpp"
#include "loupe/host.hpp"
#include "loupe/http/api_description.hpp"
#include "migrations.hpp"
#include "plugin_context.hpp"
#include "project_settings_fields.hpp"
#include "routes/routes.hpp"
#include "store/retention.hpp"

namespace {

void install(loupe::Host& host) {
    loupe::describe_api(host.services(), loupe::embedded_api_description());
    using namespace loupe::deployments;
    auto* context = &host.make<PluginContext>(host);
    add_migrations(host.migrations());
    add_create_deployment(*context);
    add_finalize_deployment(*context);
    add_get_deployment(*context);
    add_list_deployments(*context);
    add_site_link_routes(*context);
    add_project_domain_routes(*context);
    add_site_routes(*context);
    add_admin_command(*context);
    host.blob_references().add(referenced_by_deployments);
    add_project_settings_fields(host.project_fields());

    const int level = static_cast<int>(host.config().get_int("gzip_level", 9));
    auto& h = host;
    host.jobs().handle(compress_job_kind, [&h, level](const loupe::Job& job) {
        compress_deployment(h, job.payload.at("deploymentId").get<int64_t>(), level);
    });
    // Create the secret of private links' keys before the first request needs it.
    host.on_ready([context] { context->link_keys(); });
}

}  // namespace

LOUPE_PLUGIN("deployments", LOUPE_VERSION, LOUPE_REQUIRES("auth"), install)
